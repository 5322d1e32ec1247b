// SPDX-License-Identifier: MIT
// Google Benchmark of clawport's in-process hot paths (issue 15): closure planning with
// scrubbing, the TOML read it starts from, name checks, SHA-256 (each backend), the YAML
// and JSON5 readers and stableStringify, and the per-file cost of the tree walk (fs/walk.hpp)
// alone and with verify's open, fstat, read and hash of each file. Inputs are generated here,
// deterministically (the walk's tree under $TMPDIR, /tmp by default, removed at exit).
//   build/bench/bench/clawport_micro [--benchmark_filter=<regex>]
#include <clawport/digest/sha256.hpp>
#include <clawport/formats/json5.hpp>
#include <clawport/formats/stable_json.hpp>
#include <clawport/formats/yaml.hpp>
#include <clawport/fs/posix.hpp>
#include <clawport/fs/walk.hpp>
#include <clawport/names.hpp>
#include <clawport/zeroclaw.hpp>

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace {

/// The config of bench/gen.py `config`: `agents` agents over `providers` providers.
std::string big_config(int agents, int providers) {
  static const char* fam[] = {"anthropic", "openai", "openrouter", "ollama", "custom"};
  std::string out = "schema_version = 3\n[risk_profiles.guarded]\nmax_actions_per_hour = 20\n";
  char line[256];
  for (int p = 0; p < providers; ++p) {
    std::snprintf(line, sizeof line,
                  "[providers.models.%s.p%05d]\napi_key = \"sk-bench-%05d\"\nmodel = \"m-%d\"\n"
                  "temperature = 0.%d\ntimeout_secs = %d\n",
                  fam[p % 5], p, p, p % 17, p % 10, 30 + p % 90);
    out += line;
    if (p + 1 < providers && p % 3 == 0) {
      std::snprintf(line, sizeof line, "fallback = [\"%s.p%05d\"]\n", fam[(p + 1) % 5], p + 1);
      out += line;
    }
  }
  for (int a = 0; a < agents; ++a) {
    const int p = (a * 5) % providers;
    std::snprintf(line, sizeof line,
                  "[agents.a%04d]\nmodel_provider = \"%s.p%05d\"\nrisk_profile = \"guarded\"\n", a,
                  fam[p % 5], p);
    out += line;
  }
  return out;
}

const std::string& config_text() {
  static const std::string text = big_config(2000, 10000);
  return text;
}

void BM_plan_export_2000_agents(benchmark::State& state) {
  const std::string& text = config_text();
  for (auto _ : state) {
    auto plan = clawport::zeroclaw::plan_export(text, "a1000");
    benchmark::DoNotOptimize(plan);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_plan_export_2000_agents)->Unit(benchmark::kMillisecond);

void BM_parse_toml_2000_agents(benchmark::State& state) {
  const std::string& text = config_text();
  for (auto _ : state) {
    auto v = clawport::zeroclaw::parse_toml(text, "config.toml");
    benchmark::DoNotOptimize(v);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_parse_toml_2000_agents)->Unit(benchmark::kMillisecond);

void BM_plan_export_small(benchmark::State& state) {
  const std::string text = big_config(2, 10);
  for (auto _ : state) {
    auto plan = clawport::zeroclaw::plan_export(text, "a0001");
    benchmark::DoNotOptimize(plan);
  }
}
BENCHMARK(BM_plan_export_small)->Unit(benchmark::kMicrosecond);

void BM_name_check(benchmark::State& state) {
  const std::vector<std::string> names = {
      "notes.md", "research_tools", "CON", "a b ", "file-with-a-longer-name-2026-12-01.txt", "x/y"};
  for (auto _ : state) {
    for (const std::string& n : names) {
      benchmark::DoNotOptimize(clawport::names::portable::unportable_reason(n));
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * names.size()));
}
BENCHMARK(BM_name_check);

void BM_sha256(benchmark::State& state, clawport::digest::sha256_backend backend) {
  if (!clawport::digest::sha256_backend_available(backend)) {
    state.SkipWithError("backend not available on this CPU");
    return;
  }
  const std::string data(static_cast<std::size_t>(state.range(0)), 'x');
  clawport::digest::sha256 h(backend);
  for (auto _ : state) {
    h.update(data.data(), data.size());
    benchmark::DoNotOptimize(h.finish());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * data.size()));
}
BENCHMARK_CAPTURE(BM_sha256, best, clawport::digest::sha256_best_backend())
    ->Arg(64)
    ->Arg(4096)
    ->Arg(1 << 20);
BENCHMARK_CAPTURE(BM_sha256, portable, clawport::digest::sha256_backend::portable)
    ->Arg(64)
    ->Arg(4096)
    ->Arg(1 << 20);

/// The per-file cost of hashing: a new hasher of the best backend and one small file's
/// bytes, as export, verify and import pay it once per file.
void BM_sha256_new_hasher_per_file(benchmark::State& state) {
  const std::string data(static_cast<std::size_t>(state.range(0)), 'x');
  for (auto _ : state) {
    clawport::digest::sha256 h;
    h.update(data.data(), data.size());
    benchmark::DoNotOptimize(h.finish());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_sha256_new_hasher_per_file)->Arg(0)->Arg(1024);

/// A tree of `files` files of 0-1 KiB in directories of 100 (bench/gen.py's shape, smaller),
/// written once through the Fs policy and removed when the benchmark exits.
class walk_tree_fixture {
 public:
  explicit walk_tree_fixture(int files) {
    const char* tmp = std::getenv("TMPDIR");
    std::string base = (tmp != nullptr && tmp[0] == '/') ? tmp : "/tmp";
    name_ = "clawport-micro-walk-" + std::to_string(files);
    parent_ = base;
    auto root = fs_.open_root(parent_);
    if (fs_.stat_at(root, name_)) fs_.remove_tree_at(root, name_);
    fs_.make_dir_at(root, name_, 0755);
    auto top = fs_.open_dir_at(root, name_);
    const std::string body(1024, 'x');
    for (int d = 0; d * 100 < files; ++d) {
      const std::string dname = "d" + std::to_string(d);
      fs_.make_dir_at(top, dname, 0755);
      auto sub = fs_.open_dir_at(top, dname);
      for (int f = d * 100; f < files && f < (d + 1) * 100; ++f) {
        auto out = fs_.create_file_at(sub, "f" + std::to_string(f) + ".md", 0644);
        fs_.write_all(out, body.data(), static_cast<std::size_t>(f * 37 % 1025));
      }
    }
  }
  ~walk_tree_fixture() {
    try {
      auto root = fs_.open_root(parent_);
      fs_.remove_tree_at(root, name_);
    } catch (...) {
    }
  }
  walk_tree_fixture(const walk_tree_fixture&) = delete;
  walk_tree_fixture& operator=(const walk_tree_fixture&) = delete;
  std::string path() const { return parent_ + "/" + name_; }

 private:
  clawport::fs::posix fs_;
  std::string parent_, name_;
};

constexpr int walk_files = 5000;

const walk_tree_fixture& walk_tree() {
  static const walk_tree_fixture tree(walk_files);
  return tree;
}

/// Counts what the walk visits; opens every directory it descends into. With `hash`, each
/// regular file is opened, fstat'ed, read and hashed as verify does.
class counting_visitor : public clawport::fs::walk_visitor {
 public:
  using fs_type = clawport::fs::posix;
  using dir = fs_type::dir;
  counting_visitor(fs_type& fs, bool hash) : fs_(fs), hash_(hash), buffer_(64 * 1024) {}

  bool visit(const dir& d, std::string_view name, const std::string&,
             const clawport::fs::stat_info& info) {
    if (info.kind != clawport::fs::file_kind::regular) return true;
    ++files;
    if (!hash_) return false;
    auto f = fs_.open_file_at(d, name);
    benchmark::DoNotOptimize(fs_.stat(f).size);
    clawport::digest::sha256 h;
    for (std::size_t n; (n = fs_.read(f, buffer_.data(), buffer_.size())) != 0;)
      h.update(buffer_.data(), n);
    benchmark::DoNotOptimize(h.finish());
    return false;
  }
  std::optional<dir> enter(const dir& d, std::string_view name, const std::string&,
                           const clawport::fs::stat_info&) {
    return fs_.open_dir_at(d, name);
  }
  std::int64_t files = 0;

 private:
  fs_type& fs_;
  bool hash_;
  std::vector<char> buffer_;
};

/// The per-file cost of the tree walk on this machine's $TMPDIR (list, sort, classify), and
/// with `hash` also verify's per-file work; items are files.
void BM_walk_per_file(benchmark::State& state, bool hash) {
  const std::string path = walk_tree().path();
  clawport::fs::posix fs;
  std::int64_t files = 0;
  for (auto _ : state) {
    counting_visitor v(fs, hash);
    auto root = fs.open_root(path);
    clawport::fs::walk(fs, root, v);
    files += v.files;
  }
  state.SetItemsProcessed(files);
}
BENCHMARK_CAPTURE(BM_walk_per_file, classify_only, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_walk_per_file, open_read_hash, true)->Unit(benchmark::kMillisecond);

std::string yaml_profile() {
  std::string body =
      "agents:\n  defaults:\n    model: anthropic/claude-sonnet-4-5\ntools:\n"
      "  entries:\n";
  for (int i = 0; body.size() < 200 * 1024; ++i) {
    body += "    tool" + std::to_string(i) + ":\n      enabled: " + (i % 2 ? "true" : "false") +
            "\n      note: \"entry " + std::to_string(i) + "\"\n      tags: [a, b, c]\n";
  }
  return body;
}

void BM_yaml_parse_200k(benchmark::State& state) {
  const std::string text = yaml_profile();
  for (auto _ : state) {
    auto r = clawport::yaml::parse(text);
    if (!r.ok()) state.SkipWithError("yaml did not parse");
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_yaml_parse_200k)->Unit(benchmark::kMillisecond);

std::string json5_text() {
  std::string body = "{\n  // an OpenClaw profile in JSON5\n  tools: {\n";
  for (int i = 0; body.size() < 200 * 1024; ++i) {
    body += "    tool" + std::to_string(i) + ": {enabled: " + (i % 2 ? "true" : "false") +
            ", note: 'entry " + std::to_string(i) + "', weight: 0x1F, tags: ['a', 'b',],},\n";
  }
  return body + "  },\n}\n";
}

void BM_json5_parse_200k(benchmark::State& state) {
  const std::string text = json5_text();
  for (auto _ : state) {
    auto r = clawport::json5::parse(text);
    if (!r.ok()) state.SkipWithError("json5 did not parse");
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_json5_parse_200k)->Unit(benchmark::kMillisecond);

void BM_stable_stringify_200k(benchmark::State& state) {
  const auto parsed = clawport::json5::parse(json5_text());
  if (!parsed.ok()) {
    state.SkipWithError("json5 did not parse");
    return;
  }
  for (auto _ : state) {
    benchmark::DoNotOptimize(clawport::json::stable_stringify(parsed.data));
  }
}
BENCHMARK(BM_stable_stringify_200k)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
