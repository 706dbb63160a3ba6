// fftw_planner.h: the one lock under which every FFTW plan of this library is made and
// destroyed (the FFTW planner is not thread-safe; fftw_execute of a plan is).
#pragma once
#include <mutex>

namespace gf {

std::mutex& fftw_planner_lock();

} // namespace gf
