// The measurements of the public API (gluon_propagator, static_potential, ghost_propagator,
// lowest_eigenvalue, abelian_projection): the functions of src/measure/ that `gaugefix measure`
// calls, their tables as MeasurementTable.
#include "api/api_internal.h"
#include "gauge/gauge_kind.h"
#include "measure/abelian_projection.h"
#include "measure/faddeev_popov.h"
#include "measure/ghost_propagator.h"
#include "measure/gluon_propagator.h"
#include "measure/measure_output.h"
#include "measure/slab_field.h"
#include "measure/static_potential.h"

namespace gaugefix {

namespace {

MeasurementTable public_table(const gf::Table& t) {
  MeasurementTable out;
  out.columns = t.columns;
  for (const std::vector<double>& row : t.rows)
    out.values.insert(out.values.end(), row.begin(), row.end());
  return out;
}

} // namespace

MeasurementTable gluon_propagator(const Field& links, const GluonPropagatorOptions& options,
                                  const Communicator& comm) {
  return guarded("gluon_propagator", [&] {
    const gf::World world = world_of(comm);
    const gf::HostField& u = checked_field(links, "links", 4, world);
    if (options.max_n2 < 0) throw gf::Error("max_n2 must be >= 0");
    if (!(options.cylinder_width > 0)) throw gf::Error("cylinder_width must be > 0");
    const gf::MomentumCut cut{gf::parse_cut("cut", options.cut), options.max_n2,
                              options.cylinder_width};
    const gf::GaugeKind gauge =
        parse_option("gauge", [&] { return gf::parse_gauge(options.gauge); });
    if (gauge == gf::GaugeKind::mag)
      throw gf::Error("gauge: the gluon propagator is measured in landau or coulomb gauge");
    return public_table(gauge == gf::GaugeKind::coulomb
                            ? gf::table_of(gf::coulomb_gluon_propagator(u, cut, world))
                            : gf::table_of(gf::landau_gluon_propagator(u, cut, world)));
  });
}

MeasurementTable static_potential(const Field& links, int max_t, const Communicator& comm) {
  return guarded("static_potential", [&] {
    const gf::World world = world_of(comm);
    gf::HostField copy;
    const gf::HostField& u = gf::slab_field(checked_field(links, "links", 4, world), copy);
    return public_table(gf::table_of(gf::static_potential(u, max_t, world)));
  });
}

MeasurementTable ghost_propagator(const Field& links, const GhostPropagatorOptions& options,
                                  const Communicator& comm) {
  return guarded("ghost_propagator", [&] {
    const gf::World world = world_of(comm);
    gf::HostField copy;
    const gf::HostField& u = gf::slab_field(checked_field(links, "links", 4, world), copy);
    if (options.max_n2 < 1) throw gf::Error("max_n2 must be >= 1 (n = 0 is left out)");
    if (!(options.cylinder_width > 0)) throw gf::Error("cylinder_width must be > 0");
    const gf::MomentumCut cut{gf::parse_cut("cut", options.cut), options.max_n2,
                              options.cylinder_width};
    const gf::FaddeevPopov m(u, world);
    return public_table(gf::table_of(gf::ghost_propagator(
        m, gf::ghost_momenta(u.geom.L, cut), options.tolerance, options.max_iterations)));
  });
}

MeasurementTable lowest_eigenvalue(const Field& links, const LowestEigenvalueOptions& options,
                                   const Communicator& comm) {
  return guarded("lowest_eigenvalue", [&] {
    const gf::World world = world_of(comm);
    gf::HostField copy;
    const gf::FaddeevPopov m(gf::slab_field(checked_field(links, "links", 4, world), copy), world);
    return public_table(
        gf::table_of(gf::lowest_eigenvalue(m, options.tolerance, options.max_iterations)));
  });
}

MeasurementTable abelian_projection(const Field& links, const Communicator& comm) {
  return guarded("abelian_projection", [&] {
    const gf::World world = world_of(comm);
    gf::HostField copy;
    return public_table(gf::table_of(
        gf::measure_abelian(gf::slab_field(checked_field(links, "links", 4, world), copy), world)));
  });
}

} // namespace gaugefix
