#include "cost/comm/comm_plan.hpp"

#include "cost/catalog/table.hpp"
#include "cost/catalog/units.hpp"

#include <fmt/format.h>

namespace simt::cost {

void add_phase(CommPlan& plan, std::string what, Collective op, double bytes, int count, const LinkSpec& link,
               CommAlgo algo) {
  CommPhase ph;
  ph.what = std::move(what);
  ph.op = op;
  ph.bytes = bytes;
  ph.count = count;
  ph.each = collective_time(op, bytes, plan.gpus, link, algo);
  plan.link = link.name;
  plan.wire_bytes_per_gpu += count * ph.each.wire_factor * bytes;
  plan.time_s += count * ph.each.time_s;
  plan.phases.push_back(std::move(ph));
}

void finish_explanation(CommPlan& plan) {
  Table t({"phase", "collective", "count>", "size each>", "time each>", "busbw>"});
  for (const CommPhase& ph : plan.phases)
    t.add({ph.what, to_string(ph.op), fmt::format("{}", ph.count), format_bytes(ph.bytes),
           format_seconds(ph.each.time_s), format_rate(ph.each.busbw, "B/s")});
  std::string s = fmt::format("{} communication per {}, {} GPUs over {}\n", plan.scheme, plan.per, plan.gpus,
                              plan.link);
  s += t.str();
  s += fmt::format("sent per GPU = {};  time = {} (phases back to back, no overlap with compute)\n",
                   format_bytes(plan.wire_bytes_per_gpu), format_seconds(plan.time_s));
  for (const std::string& n : plan.notes) s += "  " + n + "\n";
  plan.explanation = s;
}

}  // namespace simt::cost
