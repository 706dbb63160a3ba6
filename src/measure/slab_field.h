// slab_field.h: a field as the slab measurements (faddeev_popov.h, abelian_projection.h) take
// it: this rank's time slices alone, in a geometry without halo. A field read or made on
// several ranks says halo (its neighbouring slices live on other ranks) but stores its own
// slices only; then `copy` receives the same data without the flag and is returned, else the
// field itself is.
#pragma once
#include "lattice/host_field.h"

namespace gf {

const HostField& slab_field(const HostField& u, HostField& copy);

} // namespace gf
