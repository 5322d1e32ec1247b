// SPDX-License-Identifier: MIT
// An Fs decorator: counts every open the exporter makes and logs the roots it opens, then
// forwards to the real backend. The exporter takes it unchanged, as it takes fs::posix.
//   fs_decorator /abs/path/config.toml <agent> /abs/path/bundle
#include <clawport/clawport.hpp>

#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

template <class B>
struct logging {
  using dir = typename B::dir;
  using file = typename B::file;
  B& inner;
  std::uint64_t opens = 0;

  dir open_root(std::string_view p) {
    std::clog << "root " << p << '\n';
    ++opens;
    return inner.open_root(p);
  }
  std::optional<std::string> canonical(std::string_view p) { return inner.canonical(p); }
  dir open_dir_at(const dir& d, std::string_view n) {
    ++opens;
    return inner.open_dir_at(d, n);
  }
  file open_file_at(const dir& d, std::string_view n) {
    ++opens;
    return inner.open_file_at(d, n);
  }
  std::optional<clawport::fs::stat_info> stat_at(const dir& d, std::string_view n) {
    return inner.stat_at(d, n);
  }
  clawport::fs::stat_info stat(const dir& d) { return inner.stat(d); }
  clawport::fs::stat_info stat(const file& f) { return inner.stat(f); }
  template <class F>
  void for_each_entry(const dir& d, F&& f) {
    inner.for_each_entry(d, std::forward<F>(f));
  }
  bool is_empty(const dir& d) { return inner.is_empty(d); }
  void make_dir_at(const dir& d, std::string_view n, std::uint32_t m) {
    inner.make_dir_at(d, n, m);
  }
  file create_file_at(const dir& d, std::string_view n, std::uint32_t m) {
    ++opens;
    return inner.create_file_at(d, n, m);
  }
  std::uint64_t copy_data(file& a, file& b) { return inner.copy_data(a, b); }
  std::size_t read(file& f, char* p, std::size_t n) { return inner.read(f, p, n); }
  void write_all(file& f, const char* p, std::size_t n) { inner.write_all(f, p, n); }
  void set_mode(file& f, std::uint32_t m) { inner.set_mode(f, m); }
  void unlink_at(const dir& d, std::string_view n) { inner.unlink_at(d, n); }
  void remove_dir_at(const dir& d, std::string_view n) { inner.remove_dir_at(d, n); }
  void remove_tree_at(const dir& d, std::string_view n) { inner.remove_tree_at(d, n); }
  clawport::fs::rename_result rename_at(const dir& a, std::string_view an, const dir& b,
                                        std::string_view bn, clawport::fs::rename_mode m) {
    return inner.rename_at(a, an, b, bn, m);
  }
  void sync_filesystem(const dir& d) { inner.sync_filesystem(d); }
  void sync_dir(const dir& d) { inner.sync_dir(d); }
  bool try_lock(const dir& d) { return inner.try_lock(d); }
};

static_assert(clawport::fs::check_policy<logging<clawport::fs::posix>>());

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: fs_decorator /abs/config.toml <agent> /abs/bundle\n";
    return 2;
  }
  clawport::fs::posix real;
  logging<clawport::fs::posix> fs{real};
  clawport::basic_exporter<logging<clawport::fs::posix>> exporter(fs);
  clawport::export_options o;
  o.config_path = argv[1];
  o.alias = argv[2];
  o.out = o.out_path = argv[3];
  try {
    const clawport::export_result r = exporter.run(o);
    std::cout << "exported " << r.alias << " with " << fs.opens << " opens\n";
    return fs.opens > 0 ? 0 : 1;
  } catch (const clawport::error& e) {
    std::cerr << "refused (" << clawport::to_string(e.code()) << "): " << e.what() << "\n";
    return 1;
  }
}
