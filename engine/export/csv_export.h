// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/export/named_sim_result.h"
#include "engine/sim/sim_result.h"

#include <string>
#include <string_view>
#include <vector>

namespace elk::exports {

// CSV conventions shared by both tables: a header line, '\n' line ends, fields quoted as RFC 4180
// says (a field holding a comma, a quote, CR or LF is wrapped in quotes, quotes doubled), numbers
// written locale-independently with fixed decimals (times in µs with 6 decimals = ps resolution),
// so the bytes are the same on every run and machine.

/// Intervals of every design, in `designs` order, then step order, then lane order. Header:
/// `design,step,op,lane,start_us,end_us,duration_us,stall_us`. Lanes: preload, execute, warmup,
/// compute, shift, reduce. Every step has an execute row; the other lanes have a row only where
/// the interval is not empty (ops that load nothing have no preload row). stall_us: the preload's
/// or the execution's stall (sharing); empty for the phases, to which stalls are not attributed.
/// Times are raw (no clamping). Throws std::invalid_argument for a null result or clockHz ≤ 0.
std::string intervalsCsv(const std::vector<NamedSimResult>& designs);

/// One row per link in `result.links` order (row r = link index r). Header:
/// `link,kind,chip,x,y,direction,bytes,utilization`. link = LinkInfo::name; kind as
/// sim::toString(LinkKind); x, y, direction empty where they do not apply (not a mesh link);
/// utilization = bytes ÷ (capacity × latency), 0 when either is 0.
std::string linkUtilizationCsv(const sim::SimResult& result);

/// `field` as one RFC 4180 CSV field (exposed for tests and other tables).
std::string csvField(std::string_view field);

/// `value` with `decimals` fixed decimals, '.' as decimal point whatever the C locale; "-0" is
/// written as "0"; NaN / infinities as "nan" / "inf" / "-inf".
std::string csvNumber(double value, int decimals = 6);

} // namespace elk::exports
