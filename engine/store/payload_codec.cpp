// SPDX-FileCopyrightText: 2026 Elk Studio contributors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/store/payload_codec.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include <zlib.h>

namespace elk::store::detail {

namespace {

    // Every field of these structs is written below. A new field changes the size: update the codec
    // (and kPayloadFormat), then these numbers. Sizes are those of libstdc++ on x86-64.
#if defined(__GLIBCXX__) && defined(__x86_64__)
    static_assert(sizeof(partition::Plan) == 48 && sizeof(partition::PlanCost) == 56);
    static_assert(sizeof(partition::PreloadEntry) == 40 && sizeof(partition::OpPlans) == 112);
    static_assert(sizeof(run::InputSplit) == 8 && sizeof(run::DesignRun) == 1208);
    static_assert(sizeof(schedule::StepSchedule) == 104 && sizeof(schedule::Schedule) == 200);
    static_assert(sizeof(schedule::ScheduleMetrics) == 96 && sizeof(schedule::Interval) == 16);
    static_assert(sizeof(sim::StepTrace) == 144 && sizeof(sim::LinkInfo) == 72);
    static_assert(sizeof(sim::CounterSample) == 16 && sizeof(sim::SimResult) == 840);
#endif

    constexpr char kMagic[4] = { 'E', 'L', 'K', 'P' };
    enum class Kind : std::uint16_t { PartitionTables = 1, Designs = 2 };
    constexpr std::size_t kHeaderBytes = 4 + 2 + 2 + 8;
    constexpr std::uint64_t kMaxRawBytes = std::uint64_t(1) << 32;

    struct DecodeError : std::runtime_error {
        using std::runtime_error::runtime_error;
    };

    /// Writes the little-endian stream straight into zlib, a chunk at a time: a run's link bins
    /// are tens of MB raw but compress to a few hundred KB, so the raw bytes are never held whole.
    class Writer {
    public:
        explicit Writer(Kind kind)
            : m_kind(kind)
        {
            // Level 1: payloads are written on every run; speed matters more than the last few percent.
            if (deflateInit(&m_zlib, 1) != Z_OK)
                throw std::runtime_error("result cache: zlib deflateInit failed");
            m_out.resize(kHeaderBytes + kChunkBytes);
            m_outUsed = kHeaderBytes;
        }
        ~Writer() { deflateEnd(&m_zlib); }
        Writer(const Writer&) = delete;
        Writer& operator=(const Writer&) = delete;

        void u8(std::uint8_t v) { put(v, 1); }
        void u16(std::uint16_t v) { put(v, 2); }
        void u32(std::uint32_t v) { put(v, 4); }
        void u64(std::uint64_t v) { put(v, 8); }
        void i32(std::int32_t v) { u32(std::uint32_t(v)); }
        void i64(std::int64_t v) { u64(std::uint64_t(v)); }
        void f32(float v) { u32(std::bit_cast<std::uint32_t>(v)); }
        void f64(double v) { u64(std::bit_cast<std::uint64_t>(v)); }
        void boolean(bool v) { u8(v ? 1 : 0); }
        void count(std::size_t n)
        {
            if (n > std::numeric_limits<std::uint32_t>::max())
                throw std::length_error("result cache: a list of more than 2^32 entries");
            u32(std::uint32_t(n));
        }
        void text(const std::string& s)
        {
            count(s.size());
            append(s.data(), s.size());
        }
        void interval(const schedule::Interval& v)
        {
            f64(v.startCycles);
            f64(v.endCycles);
        }
        template <typename T, typename F> void list(const std::vector<T>& items, F&& one)
        {
            count(items.size());
            for (const T& item : items)
                one(item);
        }
        /// A list of numbers as one block: its count, then the values' little-endian bytes.
        template <typename T> void block(const std::vector<T>& values)
        {
            static_assert(std::is_arithmetic_v<T>);
            count(values.size());
            if constexpr (std::endian::native == std::endian::little) {
                append(values.data(), values.size() * sizeof(T));
            } else {
                for (T v : values)
                    put(toBits(v), sizeof(T));
            }
        }

        /// The payload: header (magic, format, kind, raw size) and the zlib stream.
        std::string finish()
        {
            deflateChunk(Z_FINISH);
            m_out.resize(m_outUsed);
            char header[kHeaderBytes];
            std::memcpy(header, kMagic, 4);
            const std::uint64_t fields[] = { std::uint64_t(kPayloadFormat), std::uint64_t(m_kind), m_rawBytes };
            const int widths[] = { 2, 2, 8 };
            int at = 4;
            for (int f = 0; f < 3; ++f) {
                for (int i = 0; i < widths[f]; ++i)
                    header[at++] = char((fields[f] >> (8 * i)) & 0xff);
            }
            std::memcpy(m_out.data(), header, kHeaderBytes);
            return std::move(m_out);
        }

    private:
        static constexpr std::size_t kChunkBytes = std::size_t(1) << 16;

        template <typename T> static std::uint64_t toBits(T v)
        {
            if constexpr (std::is_same_v<T, float>)
                return std::bit_cast<std::uint32_t>(v);
            else if constexpr (std::is_same_v<T, double>)
                return std::bit_cast<std::uint64_t>(v);
            else
                return std::uint64_t(std::make_unsigned_t<T>(v));
        }
        void put(std::uint64_t v, int n)
        {
            unsigned char bytes[8];
            for (int i = 0; i < n; ++i)
                bytes[i] = static_cast<unsigned char>((v >> (8 * i)) & 0xff);
            append(bytes, std::size_t(n));
        }
        void append(const void* data, std::size_t n)
        {
            if (n == 0)
                return; // an empty vector's data() may be null, and memcpy must not see it
            m_rawBytes += n;
            const auto* bytes = static_cast<const unsigned char*>(data);
            if (m_chunkUsed + n <= kChunkBytes) {
                std::memcpy(m_chunk + m_chunkUsed, bytes, n);
                m_chunkUsed += n;
                return;
            }
            deflateChunk(Z_NO_FLUSH);
            if (n <= kChunkBytes) {
                std::memcpy(m_chunk, bytes, n);
                m_chunkUsed = n;
            } else {
                deflateBytes(bytes, n, Z_NO_FLUSH); // large blocks go to zlib directly
            }
        }
        void deflateChunk(int flush)
        {
            deflateBytes(m_chunk, m_chunkUsed, flush);
            m_chunkUsed = 0;
        }
        void deflateBytes(const unsigned char* bytes, std::size_t n, int flush)
        {
            constexpr std::size_t kPieceBytes = std::size_t(1) << 30; // zlib counts in 32 bits
            for (; n > kPieceBytes; bytes += kPieceBytes, n -= kPieceBytes)
                deflatePiece(bytes, kPieceBytes, Z_NO_FLUSH);
            deflatePiece(bytes, n, flush);
        }
        void deflatePiece(const unsigned char* bytes, std::size_t n, int flush)
        {
            m_zlib.next_in = const_cast<unsigned char*>(bytes);
            m_zlib.avail_in = uInt(n);
            while (true) {
                if (m_out.size() - m_outUsed < kChunkBytes)
                    m_out.resize(std::max(m_out.size() * 2, m_outUsed + kChunkBytes));
                m_zlib.next_out = reinterpret_cast<unsigned char*>(m_out.data() + m_outUsed);
                m_zlib.avail_out = uInt(m_out.size() - m_outUsed);
                const int rc = deflate(&m_zlib, flush);
                m_outUsed = m_out.size() - m_zlib.avail_out;
                if (rc == Z_STREAM_END)
                    return;
                if (rc != Z_OK && rc != Z_BUF_ERROR) // Z_BUF_ERROR: no input left to take, not an error
                    throw std::runtime_error("result cache: zlib deflate failed (" + std::to_string(rc) + ")");
                if (flush == Z_NO_FLUSH && m_zlib.avail_in == 0)
                    return;
            }
        }

        Kind m_kind;
        z_stream m_zlib {};
        std::string m_out;
        std::size_t m_outUsed = 0;
        unsigned char m_chunk[kChunkBytes];
        std::size_t m_chunkUsed = 0;
        std::uint64_t m_rawBytes = 0;
    };

    /// Reads a payload, inflating it a chunk at a time (blocks of numbers straight into their vectors).
    /// Every read is checked: a truncated or garbled payload throws DecodeError, never reads past.
    class Reader {
    public:
        Reader(std::string_view payload, Kind kind)
        {
            if (payload.size() < kHeaderBytes || std::memcmp(payload.data(), kMagic, 4) != 0)
                throw DecodeError("not a payload");
            const auto field = [&](std::size_t at, int width) {
                std::uint64_t v = 0;
                for (int i = 0; i < width; ++i)
                    v |= std::uint64_t(std::uint8_t(payload[at + std::size_t(i)])) << (8 * i);
                return v;
            };
            if (field(4, 2) != std::uint64_t(kPayloadFormat) || field(6, 2) != std::uint64_t(kind))
                throw DecodeError("another format or kind");
            m_rawBytes = field(8, 8);
            const std::string_view compressed = payload.substr(kHeaderBytes);
            // Deflate cannot expand more than about 1032:1; a larger claim is garbage (and would let a
            // garbled count allocate without bound).
            if (m_rawBytes > kMaxRawBytes || m_rawBytes > 1032 * std::uint64_t(compressed.size()) + 64)
                throw DecodeError("implausible size");
            if (inflateInit(&m_zlib) != Z_OK)
                throw DecodeError("zlib inflateInit failed");
            m_open = true;
            m_zlib.next_in = reinterpret_cast<unsigned char*>(const_cast<char*>(compressed.data()));
            m_zlib.avail_in = uInt(compressed.size());
        }
        ~Reader()
        {
            if (m_open)
                inflateEnd(&m_zlib);
        }
        Reader(const Reader&) = delete;
        Reader& operator=(const Reader&) = delete;

        std::uint8_t u8() { return std::uint8_t(get(1)); }
        std::uint16_t u16() { return std::uint16_t(get(2)); }
        std::uint32_t u32() { return std::uint32_t(get(4)); }
        std::uint64_t u64() { return get(8); }
        std::int32_t i32() { return std::int32_t(u32()); }
        std::int64_t i64() { return std::int64_t(u64()); }
        float f32() { return std::bit_cast<float>(u32()); }
        double f64() { return std::bit_cast<double>(u64()); }
        bool boolean()
        {
            const std::uint8_t v = u8();
            if (v > 1)
                throw DecodeError("bad boolean");
            return v == 1;
        }
        /// A list length, checked against the bytes left (each entry takes at least `minBytes`), so
        /// a garbled length never allocates more than the payload could hold.
        std::size_t count(std::size_t minBytes)
        {
            const std::size_t n = u32();
            if (n > 0 && (m_rawBytes - m_consumed) / std::max<std::size_t>(1, minBytes) < n)
                throw DecodeError("list longer than the payload");
            return n;
        }
        std::string text()
        {
            std::string s(count(1), '\0');
            read(s.data(), s.size());
            return s;
        }
        schedule::Interval interval()
        {
            schedule::Interval v;
            v.startCycles = f64();
            v.endCycles = f64();
            return v;
        }
        template <typename T, typename F> std::vector<T> list(std::size_t minBytes, F&& one)
        {
            std::vector<T> items(count(minBytes));
            for (T& item : items)
                item = one();
            return items;
        }
        template <typename T> std::vector<T> block()
        {
            static_assert(std::is_arithmetic_v<T>);
            std::vector<T> values(count(sizeof(T)));
            if constexpr (std::endian::native == std::endian::little) {
                read(values.data(), values.size() * sizeof(T));
            } else {
                for (T& v : values) {
                    const std::uint64_t bits = get(sizeof(T));
                    if constexpr (std::is_same_v<T, float>)
                        v = std::bit_cast<float>(std::uint32_t(bits));
                    else if constexpr (std::is_same_v<T, double>)
                        v = std::bit_cast<double>(bits);
                    else
                        v = T(bits);
                }
            }
            return values;
        }
        /// Every byte the header promised was read, and the zlib stream ends exactly there.
        void expectEnd()
        {
            if (m_consumed != m_rawBytes || m_chunkPos != m_chunkLength)
                throw DecodeError("trailing bytes");
            if (!m_streamEnded) {
                unsigned char probe = 0;
                m_zlib.next_out = &probe;
                m_zlib.avail_out = 1;
                if (inflate(&m_zlib, Z_NO_FLUSH) != Z_STREAM_END || m_zlib.avail_out == 0)
                    throw DecodeError("trailing bytes");
                m_streamEnded = true;
            }
            if (m_zlib.avail_in != 0)
                throw DecodeError("trailing bytes");
        }

    private:
        static constexpr std::size_t kChunkBytes = std::size_t(1) << 16;

        std::uint64_t get(int n)
        {
            unsigned char bytes[8];
            read(bytes, std::size_t(n));
            std::uint64_t v = 0;
            for (int i = 0; i < n; ++i)
                v |= std::uint64_t(bytes[i]) << (8 * i);
            return v;
        }
        void read(void* target, std::size_t n)
        {
            if (n == 0)
                return; // an empty vector's data() may be null, and memcpy must not see it
            if (m_rawBytes - m_consumed < n)
                throw DecodeError("truncated");
            m_consumed += n;
            auto* out = static_cast<unsigned char*>(target);
            const std::size_t buffered = std::min(n, m_chunkLength - m_chunkPos);
            std::memcpy(out, m_chunk + m_chunkPos, buffered);
            m_chunkPos += buffered;
            out += buffered;
            n -= buffered;
            if (n >= kChunkBytes) {
                inflateInto(out, n); // large blocks straight into their place
                return;
            }
            while (n > 0) {
                m_chunkLength = inflateSome(m_chunk, kChunkBytes);
                m_chunkPos = std::min(n, m_chunkLength);
                if (m_chunkPos == 0)
                    throw DecodeError("truncated");
                std::memcpy(out, m_chunk, m_chunkPos);
                out += m_chunkPos;
                n -= m_chunkPos;
            }
        }
        void inflateInto(unsigned char* out, std::size_t n)
        {
            while (n > 0) {
                const std::size_t produced = inflateSome(out, n);
                if (produced == 0)
                    throw DecodeError("truncated");
                out += produced;
                n -= produced;
            }
        }
        /// Inflates up to `capacity` bytes (at least one unless the stream ended or is damaged).
        std::size_t inflateSome(unsigned char* out, std::size_t capacity)
        {
            if (m_streamEnded)
                throw DecodeError("truncated");
            m_zlib.next_out = out;
            m_zlib.avail_out = uInt(std::min<std::size_t>(capacity, std::numeric_limits<uInt>::max()));
            const uInt before = m_zlib.avail_out;
            const int rc = inflate(&m_zlib, Z_NO_FLUSH);
            if (rc == Z_STREAM_END)
                m_streamEnded = true;
            else if (rc != Z_OK)
                throw DecodeError("damaged zlib stream");
            return before - m_zlib.avail_out;
        }

        z_stream m_zlib {};
        bool m_open = false;
        bool m_streamEnded = false;
        std::uint64_t m_rawBytes = 0;
        std::uint64_t m_consumed = 0;
        unsigned char m_chunk[kChunkBytes];
        std::size_t m_chunkPos = 0;
        std::size_t m_chunkLength = 0;
    };

    // ---- partition tables ----

    void writeOpPlans(Writer& w, const partition::OpPlans& p)
    {
        w.list(p.plans, [&](const partition::Plan& plan) {
            w.block(plan.spatial);
            w.list(plan.temporal, [&](const std::vector<std::int32_t>& dim) { w.block(dim); });
        });
        w.list(p.costs, [&](const partition::PlanCost& c) {
            w.i64(c.executeBytes);
            w.i64(c.preloadBytes);
            w.i64(c.iterations);
            w.f64(c.computeCycles);
            w.f64(c.shiftCycles);
            w.f64(c.reduceCycles);
            w.f64(c.partialSumCycles);
        });
        w.block(p.pareto);
        w.list(p.table, [&](const partition::PreloadEntry& e) {
            w.i64(e.preloadBytes);
            w.i64(e.executeBytes);
            w.u32(e.preloadPlan);
            w.u32(e.executePlan);
            w.f64(e.warmupCycles);
            w.f64(e.totalCycles);
        });
        w.i64(p.hbmBytes);
        w.i64(p.enumeratedPlans);
    }

    partition::OpPlans readOpPlans(Reader& r)
    {
        partition::OpPlans p;
        p.plans = r.list<partition::Plan>(8, [&] {
            partition::Plan plan;
            plan.spatial = r.block<std::int32_t>();
            plan.temporal = r.list<std::vector<std::int32_t>>(4, [&] { return r.block<std::int32_t>(); });
            return plan;
        });
        p.costs = r.list<partition::PlanCost>(56, [&] {
            partition::PlanCost c;
            c.executeBytes = r.i64();
            c.preloadBytes = r.i64();
            c.iterations = r.i64();
            c.computeCycles = r.f64();
            c.shiftCycles = r.f64();
            c.reduceCycles = r.f64();
            c.partialSumCycles = r.f64();
            return c;
        });
        p.pareto = r.block<std::uint32_t>();
        p.table = r.list<partition::PreloadEntry>(40, [&] {
            partition::PreloadEntry e;
            e.preloadBytes = r.i64();
            e.executeBytes = r.i64();
            e.preloadPlan = r.u32();
            e.executePlan = r.u32();
            e.warmupCycles = r.f64();
            e.totalCycles = r.f64();
            return e;
        });
        p.hbmBytes = r.i64();
        p.enumeratedPlans = r.i64();
        return p;
    }

    // ---- design runs ----

    void writeSchedule(Writer& w, const schedule::Schedule& s)
    {
        w.u8(std::uint8_t(s.design));
        w.list(s.steps, [&](const schedule::StepSchedule& step) {
            w.u32(step.tableEntry);
            w.i64(step.preloadBytes);
            w.i64(step.executeBytes);
            w.interval(step.preload);
            w.interval(step.execute);
            w.f64(step.computeCycles);
            w.f64(step.commCycles);
            w.f64(step.warmupCycles);
            w.f64(step.stallCycles);
            w.f64(step.nocIdleCycles);
            w.i32(step.overlappedPreloads);
            w.i32(step.preloadPosition);
        });
        w.block(s.preloadOrder);
        w.f64(s.latencyCycles);
        w.i64(s.sramPeakBytesPerCore);
        w.i64(s.ordersTried);
        w.text(s.note);
        w.i64(s.orders.prefixesVisited);
        w.i64(s.orders.validOrders);
        w.i32(s.orders.movableOps);
        w.boolean(s.orders.truncated);
        w.i32(s.orders.movesFromIdentity);
        w.f64(s.orders.minCycles);
        w.f64(s.orders.medianCycles);
        w.f64(s.orders.maxCycles);
        w.block(s.orders.orderLatencyCycles);
        w.i32(s.orders.chosenOrder);
    }

    schedule::Design readDesign(Reader& r)
    {
        const std::uint8_t v = r.u8();
        if (v > std::uint8_t(schedule::Design::Ideal))
            throw DecodeError("unknown design");
        return schedule::Design(v);
    }

    schedule::Schedule readSchedule(Reader& r)
    {
        schedule::Schedule s;
        s.design = readDesign(r);
        s.steps = r.list<schedule::StepSchedule>(100, [&] {
            schedule::StepSchedule step;
            step.tableEntry = r.u32();
            step.preloadBytes = r.i64();
            step.executeBytes = r.i64();
            step.preload = r.interval();
            step.execute = r.interval();
            step.computeCycles = r.f64();
            step.commCycles = r.f64();
            step.warmupCycles = r.f64();
            step.stallCycles = r.f64();
            step.nocIdleCycles = r.f64();
            step.overlappedPreloads = r.i32();
            step.preloadPosition = r.i32();
            return step;
        });
        s.preloadOrder = r.block<int>();
        s.latencyCycles = r.f64();
        s.sramPeakBytesPerCore = r.i64();
        s.ordersTried = r.i64();
        s.note = r.text();
        s.orders.prefixesVisited = r.i64();
        s.orders.validOrders = r.i64();
        s.orders.movableOps = r.i32();
        s.orders.truncated = r.boolean();
        s.orders.movesFromIdentity = r.i32();
        s.orders.minCycles = r.f64();
        s.orders.medianCycles = r.f64();
        s.orders.maxCycles = r.f64();
        s.orders.orderLatencyCycles = r.block<double>();
        s.orders.chosenOrder = r.i32();
        return s;
    }

    void writeMetrics(Writer& w, const schedule::ScheduleMetrics& m)
    {
        w.f64(m.latencyCycles);
        w.f64(m.executeCycles);
        w.f64(m.preloadCycles);
        w.f64(m.overlapCycles);
        w.f64(m.preloadOnlyCycles);
        w.f64(m.executeOnlyCycles);
        w.f64(m.interconnectStallCycles);
        w.i64(m.hbmBytes);
        w.f64(m.hbmUtilization);
        w.f64(m.nocUtilization);
        w.i64(m.flops);
        w.f64(m.flopsPerCycle);
    }

    schedule::ScheduleMetrics readMetrics(Reader& r)
    {
        schedule::ScheduleMetrics m;
        m.latencyCycles = r.f64();
        m.executeCycles = r.f64();
        m.preloadCycles = r.f64();
        m.overlapCycles = r.f64();
        m.preloadOnlyCycles = r.f64();
        m.executeOnlyCycles = r.f64();
        m.interconnectStallCycles = r.f64();
        m.hbmBytes = r.i64();
        m.hbmUtilization = r.f64();
        m.nocUtilization = r.f64();
        m.flops = r.i64();
        m.flopsPerCycle = r.f64();
        return m;
    }

    void writeCurve(Writer& w, const std::vector<sim::CounterSample>& curve)
    {
        w.list(curve, [&](const sim::CounterSample& c) {
            w.f64(c.atCycles);
            w.f64(c.value);
        });
    }

    std::vector<sim::CounterSample> readCurve(Reader& r)
    {
        return r.list<sim::CounterSample>(16, [&] {
            sim::CounterSample c;
            c.atCycles = r.f64();
            c.value = r.f64();
            return c;
        });
    }

    void writeBoundGap(Writer& w, const sim::BoundGap& g)
    {
        w.u8(std::uint8_t(g.floorKind));
        w.text(g.floorResource);
        for (double v : { g.floorCycles, g.hbmFloorCycles, g.computeFloorCycles, g.linkFloorCycles })
            w.f64(v);
        for (const sim::GapPart& part : g.parts) {
            w.f64(part.lossCycles);
            w.f64(part.durationCycles);
            w.list(part.intervals, [&](const schedule::Interval& i) { w.interval(i); });
        }
    }

    sim::BoundGap readBoundGap(Reader& r)
    {
        sim::BoundGap g;
        const std::uint8_t kind = r.u8();
        if (kind > std::uint8_t(sim::FloorKind::Link))
            throw DecodeError("unknown floor kind");
        g.floorKind = sim::FloorKind(kind);
        g.floorResource = r.text();
        for (double* v : { &g.floorCycles, &g.hbmFloorCycles, &g.computeFloorCycles, &g.linkFloorCycles })
            *v = r.f64();
        for (sim::GapPart& part : g.parts) {
            part.lossCycles = r.f64();
            part.durationCycles = r.f64();
            part.intervals = r.list<schedule::Interval>(16, [&] { return r.interval(); });
        }
        return g;
    }

    void writeSim(Writer& w, const sim::SimResult& s, bool withDetail)
    {
        static const std::vector<sim::CounterSample> noCurve;
        w.f64(s.clockHz);
        w.f64(s.latencyCycles);
        w.list(s.steps, [&](const sim::StepTrace& t) {
            for (const schedule::Interval* i : { &t.preload, &t.execute, &t.warmup, &t.compute, &t.shift, &t.reduce })
                w.interval(*i);
            w.f64(t.preloadStallCycles);
            w.f64(t.executeStallCycles);
            w.text(t.waitedFor);
        });
        w.list(s.stepNames, [&](const std::string& name) { w.text(name); });
        w.block(s.preloadOrder);
        if (withDetail) {
            w.list(s.links, [&](const sim::LinkInfo& l) {
                w.u8(std::uint8_t(l.kind));
                w.f64(l.bytesPerCycle);
                w.i32(l.chip);
                w.i32(l.core);
                w.i32(l.x);
                w.i32(l.y);
                w.u8(std::uint8_t(l.direction));
                w.i32(l.stack);
                w.text(l.name);
            });
            w.block(s.linkBytes);
        } else {
            w.count(0);
            w.count(0);
        }
        w.f64(s.maxLinkUtilization);
        w.f64(s.binCycles);
        if (withDetail) {
            w.block(s.binLinks);
            w.list(s.linkUtilizationBins, [&](const std::vector<float>& bin) { w.block(bin); });
        } else {
            w.count(0);
            w.count(0);
        }
        writeCurve(w, withDetail ? s.hbmBytesPerCycle : noCurve);
        writeCurve(w, withDetail ? s.nocBytesPerCycle : noCurve);
        writeCurve(w, withDetail ? s.sramBytesPerCore : noCurve);
        w.i64(s.hbmBytes);
        w.f64(s.nocBytes);
        w.f64(s.hbmUtilization);
        w.f64(s.nocUtilization);
        w.i64(s.flops);
        w.f64(s.flopsPerCycle);
        w.i64(s.sramPeakBytesPerCore);
        w.f64(s.overlapCycles);
        w.f64(s.preloadOnlyCycles);
        w.f64(s.executeOnlyCycles);
        w.f64(s.interconnectStallCycles);
        writeBoundGap(w, s.boundGap);
        w.i64(s.events);
    }

    sim::SimResult readSim(Reader& r)
    {
        sim::SimResult s;
        s.clockHz = r.f64();
        s.latencyCycles = r.f64();
        s.steps = r.list<sim::StepTrace>(6 * 16 + 2 * 8 + 4, [&] {
            sim::StepTrace t;
            for (schedule::Interval* i : { &t.preload, &t.execute, &t.warmup, &t.compute, &t.shift, &t.reduce })
                *i = r.interval();
            t.preloadStallCycles = r.f64();
            t.executeStallCycles = r.f64();
            t.waitedFor = r.text();
            return t;
        });
        s.stepNames = r.list<std::string>(4, [&] { return r.text(); });
        s.preloadOrder = r.block<int>();
        s.links = r.list<sim::LinkInfo>(34, [&] {
            sim::LinkInfo l;
            const std::uint8_t kind = r.u8();
            if (kind > std::uint8_t(sim::LinkKind::InterChip))
                throw DecodeError("unknown link kind");
            l.kind = sim::LinkKind(kind);
            l.bytesPerCycle = r.f64();
            l.chip = r.i32();
            l.core = r.i32();
            l.x = r.i32();
            l.y = r.i32();
            l.direction = char(r.u8());
            l.stack = r.i32();
            l.name = r.text();
            return l;
        });
        s.linkBytes = r.block<double>();
        s.maxLinkUtilization = r.f64();
        s.binCycles = r.f64();
        s.binLinks = r.block<std::uint32_t>();
        s.linkUtilizationBins = r.list<std::vector<float>>(4, [&] { return r.block<float>(); });
        s.hbmBytesPerCycle = readCurve(r);
        s.nocBytesPerCycle = readCurve(r);
        s.sramBytesPerCore = readCurve(r);
        s.hbmBytes = r.i64();
        s.nocBytes = r.f64();
        s.hbmUtilization = r.f64();
        s.nocUtilization = r.f64();
        s.flops = r.i64();
        s.flopsPerCycle = r.f64();
        s.sramPeakBytesPerCore = r.i64();
        s.overlapCycles = r.f64();
        s.preloadOnlyCycles = r.f64();
        s.executeOnlyCycles = r.f64();
        s.interconnectStallCycles = r.f64();
        s.boundGap = readBoundGap(r);
        s.events = r.i64();
        return s;
    }

} // namespace

std::string encodePartitionTables(const run::PartitionTables& tables)
{
    Writer w(Kind::PartitionTables);
    w.list(tables.plans, [&](const partition::OpPlans& p) { writeOpPlans(w, p); });
    w.list(tables.splits, [&](const run::InputSplit& s) {
        w.i32(s.parts);
        w.i32(s.dim);
    });
    w.list(tables.inputOfPlanSet, [&](std::uint32_t input) { w.u32(input); });
    return w.finish();
}

std::optional<run::PartitionTables> decodePartitionTables(std::string_view payload)
{
    try {
        Reader r(payload, Kind::PartitionTables);
        run::PartitionTables tables;
        tables.plans = r.list<partition::OpPlans>(4 * 4 + 16, [&] { return readOpPlans(r); });
        tables.splits = r.list<run::InputSplit>(8, [&] {
            run::InputSplit s;
            s.parts = r.i32();
            s.dim = r.i32();
            return s;
        });
        tables.inputOfPlanSet = r.list<std::uint32_t>(4, [&] { return r.u32(); });
        r.expectEnd();
        return tables;
    } catch (const DecodeError&) {
        return std::nullopt;
    }
}

std::string encodeDesigns(const std::vector<run::DesignRun>& designs, bool withDetail)
{
    Writer w(Kind::Designs);
    w.list(designs, [&](const run::DesignRun& d) {
        w.u8(std::uint8_t(d.design));
        w.boolean(d.schedule.has_value());
        if (d.schedule)
            writeSchedule(w, *d.schedule);
        writeMetrics(w, d.metrics);
        w.boolean(d.simulated.has_value());
        if (d.simulated)
            writeSim(w, *d.simulated, withDetail);
        w.text(d.error);
        w.f64(d.seconds);
        w.f64(d.simulateSeconds);
    });
    return w.finish();
}

std::optional<std::vector<run::DesignRun>> decodeDesigns(std::string_view payload)
{
    try {
        Reader r(payload, Kind::Designs);
        auto designs = r.list<run::DesignRun>(1 + 1 + 96 + 1 + 4 + 16, [&] {
            run::DesignRun d;
            d.design = readDesign(r);
            if (r.boolean())
                d.schedule = readSchedule(r);
            d.metrics = readMetrics(r);
            if (r.boolean())
                d.simulated = readSim(r);
            d.error = r.text();
            d.seconds = r.f64();
            d.simulateSeconds = r.f64();
            return d;
        });
        r.expectEnd();
        return designs;
    } catch (const DecodeError&) {
        return std::nullopt;
    }
}

} // namespace elk::store::detail
