// precision_types.h: the three number types of each precision mode, chosen at compile time.
//   storage  how links and g(x) are stored in the device layout;
//   link     the arithmetic on whole links (loading, forming K, rotating K and G, applying G);
//   problem  the SU(2) subproblems of Step 1 and their solutions, and the update of g(x).
// Mixed precision is the paper's: links stored and multiplied in single precision, only the
// local SU(2) problem and its solution in double.
#pragma once

namespace gf {

template <class Storage, class Link, class Problem>
struct PrecisionTypes {
  using storage = Storage;
  using link = Link;
  using problem = Problem;
};

using SinglePrecision = PrecisionTypes<float, float, float>;
using MixedPrecision = PrecisionTypes<float, float, double>;
using DoublePrecision = PrecisionTypes<double, double, double>;

} // namespace gf
