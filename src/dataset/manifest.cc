#include "dataset/manifest.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <string_view>

#include "common/clock.h"
#include "common/error.h"
#include "common/json_fields.h"
#include "common/strings.h"
#include "formats/format.h"
#include "storage/io_error.h"
#include "storage/object_streambuf.h"

namespace trainbench::dataset {
nlohmann::json GenerationKey(const config::WorkloadConfig& c) {
  const auto& d = c.dataset;
  // "layout": DLIO's names and shapes (.hdf5, (side, side, samples), ...); datasets of
  // older versions lack it, so datagen will not mix the two in one folder.
  nlohmann::json key = {{"layout", "dlio"},
                        {"format", d.format},
                        {"seed", c.train.seed},
                        {"record_length_bytes", d.record_length_bytes},
                        {"record_length_bytes_stdev", d.record_length_bytes_stdev},
                        {"record_length_bytes_resize", d.record_length_bytes_resize},
                        {"num_samples_per_file", d.num_samples_per_file},
                        {"file_prefix", d.file_prefix},
                        {"compression", config::ToString(d.compression)},
                        {"compression_level", d.compression_level},
                        {"chunk_size", d.chunk_size},
                        {"enable_chunking", d.enable_chunking},
                        {"num_subfolders_train", d.num_subfolders_train},
                        {"num_subfolders_eval", d.num_subfolders_eval}};
  // What the format's own settings (or its layout's version) add: formats/ knows them.
  if (const auto& format = formats::FindFormat(d.format); format.layout_key)
    format.layout_key(c, key);
  return key;
}

uint64_t Manifest::TotalBytes() const {
  uint64_t total = 0;
  for (const auto& f : files) total += f.size_bytes;
  return total;
}

namespace {

// A file as a manifest's and a journal's line holds it (nlohmann::json: its keys sorted).
struct FileFields {
  std::string path;
  uint64_t size_bytes = 0, num_samples = 0;
  std::optional<std::vector<uint64_t>> sample_offsets, sample_lengths;
  std::optional<std::vector<std::string>> companions;
  // One array a unit: [samples, offset, length, offset, length, ...], a line's worth.
  std::optional<std::vector<std::vector<uint64_t>>> units;
};
TB_JSON_FIELDS(FileFields, path, size_bytes, num_samples, sample_offsets, sample_lengths,
               companions, units)

}  // namespace

nlohmann::json ToJson(const formats::WrittenFile& f) {
  FileFields j{.path = f.path,
               .size_bytes = f.size_bytes,
               .num_samples = f.num_samples,
               .sample_offsets = std::nullopt,
               .sample_lengths = std::nullopt,
               .companions = std::nullopt,
               .units = std::nullopt};
  if (!f.samples.empty()) {
    auto& offsets = j.sample_offsets.emplace();
    auto& lengths = j.sample_lengths.emplace();
    offsets.reserve(f.samples.size());
    lengths.reserve(f.samples.size());
    for (const auto& s : f.samples) {
      offsets.push_back(s.offset);
      lengths.push_back(s.length);
    }
  }
  if (!f.companions.empty()) j.companions = f.companions;
  if (!f.units.empty()) {
    auto& units = j.units.emplace();
    for (const auto& u : f.units) {
      std::vector<uint64_t>& row = units.emplace_back(1, u.num_samples);
      for (const auto& e : u.extents) {
        row.push_back(e.offset);
        row.push_back(e.length);
      }
    }
  }
  return j;
}

formats::WrittenFile FileFromJson(const nlohmann::json& j) {
  for (const char* key : {"path", "size_bytes", "num_samples"})
    if (!j.contains(key)) throw std::runtime_error(fmt::format("no '{}'", key));
  const auto fields = j.get<FileFields>();
  formats::WrittenFile f;
  f.path = fields.path;
  f.size_bytes = fields.size_bytes;
  f.num_samples = fields.num_samples;
  if (fields.sample_offsets) {
    const auto& offsets = *fields.sample_offsets;
    const auto lengths = fields.sample_lengths.value_or(std::vector<uint64_t>());
    if (offsets.size() != lengths.size())
      throw std::runtime_error("sample_offsets and sample_lengths differ in size");
    f.samples.resize(offsets.size());
    for (size_t i = 0; i < offsets.size(); ++i) f.samples[i] = {offsets[i], lengths[i]};
  }
  if (fields.companions) f.companions = *fields.companions;
  if (fields.units) {
    uint64_t first = 0;
    for (const auto& v : *fields.units) {
      if (v.empty() || v.size() % 2 != 1)
        throw std::runtime_error("a unit is not [samples, offset, length, ...]");
      formats::ReadUnit u{first, v[0], {}};
      for (size_t i = 1; i < v.size(); i += 2) u.extents.push_back({v[i], v[i + 1]});
      first += u.num_samples;
      f.units.push_back(std::move(u));
    }
    if (first != f.num_samples)
      throw std::runtime_error(
          fmt::format("units of '{}' hold {} samples, not {}", f.path, first, f.num_samples));
  }
  return f;
}

void WriteManifest(const Manifest& manifest, storage::Storage& storage) {
  // One file per line: readable with grep and head, and a fraction of pretty JSON's size.
  const nlohmann::json header = {{"trainbench_manifest_version", 1},
                                 {"workload", manifest.workload},
                                 {"generation", manifest.key},
                                 {"num_files", manifest.files.size()},
                                 {"total_bytes", manifest.TotalBytes()}};
  std::string text = header.dump();
  text.pop_back();  // reopen the object to append "files"
  text += ",\n\"files\": [\n";
  for (size_t i = 0; i < manifest.files.size(); ++i) {
    text += ToJson(manifest.files[i]).dump();
    text += i + 1 < manifest.files.size() ? ",\n" : "\n";
  }
  text += "]}\n";
  auto out = storage.Create(kManifestName);
  out->Append(text.data(), text.size());
  out->Commit();
}

std::optional<ManifestHead> ReadManifestFiles(
    storage::Storage& storage, const std::function<void(const ManifestHead&)>& on_head,
    const std::function<void(formats::WrittenFile&&)>& on_file) {
  if (!storage.FileSize(kManifestName)) return std::nullopt;
  try {
    // Each file's entry becomes a WrittenFile as soon as the parser closes it, and its JSON
    // is dropped: a DOM of a million entries would take a kilobyte each (128 MB for 100k
    // retinanet files) where the run keeps a fraction of that.
    ManifestHead head;
    bool head_told = false;
    std::string member;  // the top-level key being parsed
    auto tell_head = [&] {
      if (head_told) return;
      head_told = true;
      on_head(head);
    };
    using Event = nlohmann::json::parse_event_t;
    nlohmann::json::parser_callback_t keep = [&](int depth, Event event, nlohmann::json& parsed) {
      if (event == Event::key && depth == 1) member = parsed.get<std::string>();
      const bool member_value =
          depth == 1 && (event == Event::value || event == Event::object_end) && !member.empty();
      if (member_value && member == "workload" && parsed.is_string())
        head.workload = parsed.get<std::string>();
      if (member_value && member == "generation") head.key = parsed;
      if (member_value && member == "num_files" && parsed.is_number_unsigned())
        head.num_files = parsed.get<uint64_t>();
      if (member == "files" && depth == 2 && event == Event::object_end) {
        tell_head();
        on_file(FileFromJson(parsed));
        return false;
      }
      return true;
    };
    storage::ObjectStreambuf buffer(storage, kManifestName);
    std::istream in(&buffer);
    const auto j = nlohmann::json::parse(in, keep);
    if (!j.contains("workload") || !j.contains("generation"))
      throw std::runtime_error("no \"workload\" or \"generation\"");
    if (!j.contains("files")) throw std::runtime_error("no \"files\" list");
    tell_head();  // a dataset of no files
    return head;
  } catch (const RuntimeError&) {
    throw;  // the caller's own refusal, or the storage's (it names the object)
  } catch (const std::exception& e) {
    // The parser quotes what it read: a manifest of random bytes (a replay's PUT of one)
    // would reach the terminal raw.
    throw RuntimeError(fmt::format("manifest '{}' is damaged ({}); delete it and re-run datagen",
                                   storage.Describe(kManifestName), Printable(e.what())));
  }
}

std::optional<Manifest> ReadManifest(storage::Storage& storage) {
  Manifest m;
  auto head = ReadManifestFiles(
      storage, [&](const ManifestHead& h) { m.files.reserve(h.num_files); },
      [&](formats::WrittenFile&& f) { m.files.push_back(std::move(f)); });
  if (!head) return std::nullopt;
  m.workload = std::move(head->workload);
  m.key = std::move(head->key);
  return m;
}

namespace {

// A short fingerprint of the generation settings, recorded with every journal entry so an
// entry is only ever taken for a file written with today's settings.
std::string KeyDigest(const nlohmann::json& key) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (const unsigned char c : key.dump()) h = (h ^ c) * 1099511628211ull;
  return fmt::format("{:016x}", h);
}

}  // namespace

std::optional<std::string> JournalNameOf(const std::string& path) {
  const std::string name = kJournalName;
  const std::string top = path.substr(0, path.find('/'));
  if (top != name && top.rfind(name + ".rank", 0) != 0) return std::nullopt;
  return top;
}

Journal::Journal(storage::Storage& storage, const std::string& name, const nlohmann::json& key)
    : path_(storage.LocalPath(name)),
      name_(name),
      key_line_(key.dump() + "\n"),
      digest_(KeyDigest(key)) {
  if (path_) {
    OpenLocal(key);
  } else {
    storage_ = &storage;
    OpenObjects(key);
  }
}

bool Journal::Load(const std::string& text, const nlohmann::json& key) {
  std::istringstream in(text);
  std::string line;
  bool key_matches = false;
  if (std::getline(in, line)) {
    try {
      key_matches = nlohmann::json::parse(line) == key;
    } catch (...) {
    }
  }
  // A killed datagen may leave a torn last line: stop at the first bad one.
  while (key_matches && std::getline(in, line)) {
    if (line.empty()) continue;
    try {
      const auto j = nlohmann::json::parse(line);
      if (j.value("generation", std::string()) != digest_) continue;
      auto f = FileFromJson(j);
      entries_[f.path] = std::move(f);
    } catch (...) {
      break;
    }
  }
  return key_matches;
}

void Journal::OpenLocal(const nlohmann::json& key) {
  bool key_matches = false;
  {
    std::ifstream in(*path_);
    if (in) {
      std::stringstream text;
      text << in.rdbuf();
      key_matches = Load(text.str(), key);
    }
  }
  std::error_code ec;
  const auto folder = std::filesystem::path(*path_).parent_path();
  std::filesystem::create_directories(folder, ec);
  if (ec) storage::ThrowIoError("cannot create folder", folder.string(), ec.value());
  const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (key_matches ? O_APPEND : O_TRUNC);
  fd_ = ::open(path_->c_str(), flags, 0644);
  if (fd_ < 0) storage::ThrowIoError("cannot write journal", *path_, errno);
  if (!key_matches) {
    entries_.clear();
    if (::write(fd_, key_line_.data(), key_line_.size()) != static_cast<ssize_t>(key_line_.size()))
      storage::ThrowIoError("cannot write journal", *path_, errno);
  } else {
    // Re-align after a torn line so the next record starts on its own line.
    const std::string nl = "\n";
    [[maybe_unused]] auto n = ::write(fd_, nl.data(), 1);
  }
}

void Journal::OpenObjects(const nlohmann::json& key) {
  // Pieces of other settings are an earlier dataset's record: they go.
  for (const auto& piece : storage_->List(name_)) {
    const auto bytes = storage::ReadAll(*storage_, piece.path);
    if (!Load(std::string(bytes.begin(), bytes.end()), key)) storage_->Remove(piece.path);
    const size_t slash = piece.path.rfind('/');
    next_piece_ = std::max<uint64_t>(
        next_piece_, std::strtoull(piece.path.c_str() + slash + 1, nullptr, 10) + 1);
  }
}

Journal::~Journal() {
  if (fd_ >= 0) ::close(fd_);
  if (!storage_ || removed_) return;
  try {  // what an error or an interrupt left unrecorded
    std::unique_lock<std::mutex> lock(mutex_);
    FlushPiece(lock);
  } catch (const std::exception&) {
  }
}

void Journal::FlushPiece(std::unique_lock<std::mutex>& lock) {
  if (pending_.empty()) return;
  const std::string text = key_line_ + pending_;
  pending_.clear();
  const std::string piece = fmt::format("{}/{:08}", name_, next_piece_++);
  last_flush_s_ = NowSeconds();
  lock.unlock();  // other writers record on while the piece goes out
  auto writer = storage_->Create(piece);
  writer->Append(text.data(), text.size());
  writer->Commit();
  lock.lock();
}

void Journal::Record(const formats::WrittenFile& file) {
  nlohmann::json j = ToJson(file);
  j["generation"] = digest_;
  const std::string line = j.dump() + "\n";
  std::unique_lock<std::mutex> lock(mutex_);
  entries_[file.path] = file;
  if (storage_) {
    pending_ += line;
    if (NowSeconds() - last_flush_s_ >= kObjectFlushSeconds) FlushPiece(lock);
    return;
  }
  if (fd_ < 0) return;
  if (::write(fd_, line.data(), line.size()) != static_cast<ssize_t>(line.size()))
    storage::ThrowIoError("cannot append to journal", *path_, errno);
}

void Journal::Remove() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (path_) ::unlink(path_->c_str());
  if (!storage_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  removed_ = true;
  pending_.clear();
  for (const auto& piece : storage_->List(name_)) storage_->Remove(piece.path);
}

}  // namespace trainbench::dataset
