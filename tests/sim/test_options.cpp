// The runtime options table (sim/options/options.inc): parsing, every bad value's
// message, and the order in which sources override one another.
#include <doctest/doctest.h>

#include "sim/options/options.hpp"

#include <string>

using simt::Options;

namespace {

std::string error_of(const std::string& text) {
  Options o;
  return simt::parse_options(text, o);
}

}  // namespace

TEST_CASE("options: good values of every kind, colon or blank separated, quoted values") {
  Options o;
  REQUIRE(simt::parse_options("races=always:threads=4 exact=1\tsample_budget=0.005:skip_repeats=none", o) == "");
  CHECK(o.races == simt::RaceChecks::always);
  CHECK(o.threads == 4);
  CHECK(o.exact);
  CHECK(o.sample_budget == 0.005);
  CHECK(o.skip_repeats == simt::SkipRepeats::none);
  REQUIRE(simt::parse_options("report_json='/tmp/a b:c' timeline=\"it's\" device=H100-SXM guard=false", o) == "");
  CHECK(o.report_json == "/tmp/a b:c");
  CHECK(o.timeline == "it's");
  CHECK(o.device == "H100-SXM");
  CHECK(!o.guard);
  CHECK(o.threads == 4);  // untouched by the second text
}

TEST_CASE("options: the defaults are the table's") {
  const Options o;
  CHECK(o.threads == 0);
  CHECK(o.races == simt::RaceChecks::on);
  CHECK(o.skip_repeats == simt::SkipRepeats::defer);
  CHECK(o.sample_budget == 60.0);
  CHECK(o.watchdog_insts == (std::uint64_t(1) << 32));
  CHECK(o.device == "H200");
  CHECK(o.guard);
  CHECK(o.report == simt::ReportKind::none);
  CHECK(simt::format_options(o) == "");
}

TEST_CASE("options: a bad value names the option and what it takes") {
  CHECK(error_of("threads=abc") == "threads=abc: threads takes a whole number, 0 or more");
  CHECK(error_of("threads=-1") == "threads=-1: threads takes a whole number, 0 or more");
  CHECK(error_of("threads=99999999999999999999") ==
        "threads=99999999999999999999: threads takes a whole number, 0 or more");
  CHECK(error_of("races=maybe") == "races=maybe: races takes off, on or always");
  CHECK(error_of("skip_repeats=1") == "skip_repeats=1: skip_repeats takes defer, pure, all or none");
  CHECK(error_of("report=json") == "report=json: report takes none or tables");
  CHECK(error_of("sample_budget=nan") == "sample_budget=nan: sample_budget takes a positive number of seconds");
  CHECK(error_of("sample_budget=0") == "sample_budget=0: sample_budget takes a positive number of seconds");
  CHECK(error_of("sample_probe=inf") == "sample_probe=inf: sample_probe takes a positive number of seconds");
  CHECK(error_of("watchdog_insts=0") == "watchdog_insts=0: watchdog_insts takes a whole number above 0");
  CHECK(error_of("exact=yes") == "exact=yes: exact takes 0, 1, true or false");
  CHECK(error_of("device=") == "device=: device takes a name");
  CHECK(error_of("report_json='unclosed") == "report_json='unclosed: the quote is not closed");
  CHECK(error_of("thread=4").rfind("no option 'thread' (options: threads, races,", 0) == 0);
  CHECK(error_of("threads").rfind("'threads' is not name=value", 0) == 0);
}

TEST_CASE("options: a later source overrides an earlier one, item by item (flags > SIMT_OPTIONS > default)") {
  Options o;  // the defaults
  REQUIRE(simt::parse_options("threads=4:races=always:threads=3", o) == "");  // $SIMT_OPTIONS: the last item wins
  CHECK(o.threads == 3);
  REQUIRE(simt::set_option(o, "threads", "2") == "");  // a flag, as simt run --threads 2 sets it
  CHECK(o.threads == 2);
  CHECK(o.races == simt::RaceChecks::always);  // not given as a flag: SIMT_OPTIONS's
  CHECK(o.sample_budget == 60.0);              // given nowhere: the default
  CHECK(simt::set_option(o, "races", "maybe") == "races=maybe: races takes off, on or always");
  CHECK(o.races == simt::RaceChecks::always);  // a refused value changes nothing
}

TEST_CASE("options: format_options writes what parse_options reads back") {
  Options o;
  o.threads = 7;
  o.sample_budget = 0.1 + 0.2;  // needs 17 digits
  o.report_json = "/tmp/x y:z";
  o.timeline = "it's";
  o.skip_repeats = simt::SkipRepeats::all;
  o.pass_no_fold_fp = true;
  Options back;
  REQUIRE(simt::parse_options(simt::format_options(o), back) == "");
  CHECK(back.threads == 7);
  CHECK(back.sample_budget == 0.1 + 0.2);
  CHECK(back.report_json == "/tmp/x y:z");
  CHECK(back.timeline == "it's");
  CHECK(back.skip_repeats == simt::SkipRepeats::all);
  CHECK(back.pass_no_fold_fp);
  CHECK(simt::format_options(back) == simt::format_options(o));
}

TEST_CASE("options: every row of the table has a name, a help line and a default it accepts") {
  for (const simt::OptionInfo& info : simt::option_table()) {
    INFO(info.name);
    CHECK(std::string(info.help).size() > 10);
    Options o;
    CHECK(simt::set_option(o, info.name, info.default_text) == "");
    CHECK(info.get(o) == info.default_text);
  }
}
