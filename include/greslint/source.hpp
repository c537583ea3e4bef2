// SPDX-License-Identifier: Apache-2.0
// Source buffers and byte spans; line:column is computed only when printing.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace greslint {

/// Index of a file in the SourceManager. Value 0xFFFF means "no file".
struct FileId {
  std::uint16_t index = 0xFFFF;
  bool valid() const noexcept { return index != 0xFFFF; }
  friend bool operator==(FileId a, FileId b) noexcept { return a.index == b.index; }
  friend bool operator!=(FileId a, FileId b) noexcept { return a.index != b.index; }
};

/// Half-open byte range [begin, end) in one file's original text.
struct Span {
  FileId file;
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
  bool valid() const noexcept { return file.valid(); }
  std::uint32_t size() const noexcept { return end - begin; }
};

/// Moves `f` (or span `s`) to the file `by` ids further on (a file read before its id was
/// known; SourceManager::rebase). No file stays no file.
inline void shift_file(FileId& f, std::uint16_t by) noexcept {
  if (f.valid()) f.index = static_cast<std::uint16_t>(f.index + by);
}
inline void shift_file(Span& s, std::uint16_t by) noexcept { shift_file(s.file, by); }

/// 1-based line and byte column.
struct LineCol {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
};

/// How many '\n' bytes `text` holds (16 at a time where SSE2 is there).
std::size_t count_newlines(std::string_view text) noexcept;

/// The bytes of a mapped file read once more, for the reader to parse (FileText::parse_view):
/// memory the reader's thread reuses from file to file. Performance: on the 2-core PVM guest
/// this project measures on, the first read of each 4 KiB page of a mapping costs ~1.6 us,
/// populated or not, where read() into memory already faulted in costs the copy alone: the
/// four files of a per-GPU gres.conf (54 MB) took ~27 ms mapped and ~11 ms read.
/// Unmaps a parse copy: a mapping of its own, outside the heap, so that its pages leave the
/// process with it and leave no hole in the heap behind.
struct ParseCopyUnmap {
  std::size_t bytes = 0;
  void operator()(char* p) const noexcept;
};
struct ParseCopy {
  std::unique_ptr<char[], ParseCopyUnmap> bytes;
  std::size_t capacity = 0;
};

/// A buffer of at least `size` bytes for a parse copy: the one this thread gave back last
/// (give_back_parse_copy) if it is large enough, its pages past `size` handed back to the
/// system, else a new one.
ParseCopy take_parse_copy(std::size_t size);
/// Keeps `copy` for this thread's next take_parse_copy (one is kept; a smaller one is freed).
void give_back_parse_copy(ParseCopy copy) noexcept;
/// Frees the buffer this thread keeps, if any: its reading is done.
void free_parse_copies() noexcept;

/// A file's text as the SourceManager holds it: bytes read into memory, or, for a large
/// regular file, its pages mapped read-only from the page cache. A per-node configuration is
/// tens of MB; read, every byte was copied into freshly allocated memory, which on a VM costs
/// more than reading it (docs/performance.md). A mapped file may come with a parse copy of
/// its bytes: the reader parses that, and points whatever it keeps at the mapping, whose
/// pages are then only read where a finding quotes a line. Move-only.
class FileText {
 public:
  FileText() = default;
  explicit FileText(std::string text) : owned_(std::move(text)), view_(owned_) {}
  /// Takes over a read-only mapping of `size` bytes at `data` (munmap when done), and a
  /// copy of those bytes, if any, in the first `size` bytes of `copy`.
  static FileText mapped(const char* data, std::size_t size, ParseCopy copy = {});
  FileText(FileText&& other) noexcept;
  FileText& operator=(FileText&& other) noexcept;
  FileText(const FileText&) = delete;
  FileText& operator=(const FileText&) = delete;
  ~FileText();

  std::string_view view() const noexcept { return view_; }
  bool empty() const noexcept { return view_.empty(); }
  std::size_t size() const noexcept { return view_.size(); }
  /// A mapping of the file (read-only, private): pages let go with madvise are read again
  /// from the file when touched, so its views stay valid.
  bool is_mapped() const noexcept { return mapped_; }
  /// The same bytes as view(), where the reader should read them: the parse copy while there
  /// is one, else view().
  std::string_view parse_view() const noexcept {
    return copy_.bytes ? std::string_view(copy_.bytes.get(), view_.size()) : view_;
  }
  bool has_parse_copy() const noexcept { return bool(copy_.bytes); }
  /// Gives the parse copy up (parse_view() is view() from then on).
  ParseCopy take_parse_copy() noexcept { return std::move(copy_); }

 private:
  void release() noexcept;
  std::string owned_;
  std::string_view view_;
  bool mapped_ = false;
  ParseCopy copy_;
};

/// Owns every file greslint reads. Text is never mutated after add(), and never moves: the
/// syntax tree holds views into it (deques keep their elements in place as they grow, and a
/// moved SourceManager or deque keeps its buffers), so the manager must outlive every
/// ConfigFile.
///
/// A manager is used by one thread at a time. A file read on another thread goes into a
/// manager of its own, rebased after this one's files and adopted when done.
class SourceManager {
 public:
  SourceManager() = default;
  SourceManager(SourceManager&&) noexcept = default;
  SourceManager& operator=(SourceManager&&) noexcept = default;
  // A copy would hold text that views into the original do not point at.
  SourceManager(const SourceManager&) = delete;
  SourceManager& operator=(const SourceManager&) = delete;

  FileId add(std::string path, FileText text);
  FileId add(std::string path, std::string text) { return add(std::move(path), FileText(std::move(text))); }
  /// Keeps text that is not in any file (a logical line cooked from escapes or continuation
  /// lines) as long as the files, at a stable address.
  std::string_view keep(std::string text) { return cooked_.emplace_back(std::move(text)); }
  /// Keeps an object the syntax tree points into (a RepeatedTail, shared by the lines that
  /// repeat it) as long as the files: a directive holds a plain pointer to it.
  void keep_alive(std::shared_ptr<const void> object) { kept_alive_.push_back(std::move(object)); }

  /// Takes over `later`'s files and kept text, at the same ids and addresses. Returns false,
  /// taking nothing, when `later` was not rebased onto this manager's current file count
  /// (a file was added here in the meantime, and the ids would clash).
  bool adopt(SourceManager&& later);
  /// For a manager that follows none (default-constructed), filled or not, on another
  /// thread: numbers its files after the `files_before` files ahead of them, and counts their
  /// `bytes_before` bytes in text_bytes(). Returns by how many ids every span into files it
  /// already holds must move (shift_file).
  std::uint16_t rebase(std::size_t files_before, std::size_t bytes_before);

  const std::string& path(FileId f) const { return file(f).path; }
  std::string_view text(FileId f) const { return file(f).text.view(); }
  bool mapped(FileId f) const { return file(f).text.is_mapped(); }
  /// What the reader parses of file `f`: its parse copy, if it has one, else text(f).
  std::string_view parse_text(FileId f) const { return file(f).text.parse_view(); }
  bool has_parse_copy(FileId f) const { return file(f).text.has_parse_copy(); }
  /// Gives file `f`'s parse copy back to this thread (give_back_parse_copy): the reader is
  /// done with it, and nothing it kept points into it.
  void drop_parse_copy(FileId f) { give_back_parse_copy(by_id_mutable(f).text.take_parse_copy()); }
  std::string_view text(Span s) const;
  LineCol line_col(FileId f, std::uint32_t offset) const;
  /// The physical line `line` (1-based) without its line terminator.
  std::string_view line_text(FileId f, std::uint32_t line) const;
  /// Ids in use: the files added or adopted here, and those of the managers this one
  /// continues.
  std::size_t file_count() const noexcept { return first_ + by_id_.size(); }
  /// Bytes of text in those files: what greslint's limit on one run's reading counts.
  std::size_t text_bytes() const noexcept { return text_bytes_; }
  /// Physical lines of file `f` (a last line without a newline counts; an empty file has one).
  std::size_t line_count(FileId f) const { return line_starts(file(f)).size(); }

 private:
  struct File {
    std::string path;
    FileText text;
    /// Where each line starts: found the first time a position is asked for. Most files of
    /// a clean run never are, and finding them in a 25 MB configuration was 5% of its run.
    mutable std::vector<std::uint32_t> line_starts;
    mutable bool lines_found = false;
  };
  const File& file(FileId f) const { return *by_id_[f.index - first_]; }
  File& by_id_mutable(FileId f) { return const_cast<File&>(file(f)); }
  const std::vector<std::uint32_t>& line_starts(const File& file) const;
  std::uint16_t first_ = 0;  ///< the id of by_id_[0]
  std::size_t text_bytes_ = 0;
  std::vector<const File*> by_id_;
  std::deque<File> files_;
  std::deque<std::string> cooked_;
  std::vector<std::shared_ptr<const void>> kept_alive_;
  /// Storage taken over by adopt(): whole deques, whose elements keep their addresses.
  std::vector<std::deque<File>> adopted_files_;
  std::vector<std::deque<std::string>> adopted_cooked_;
};

}  // namespace greslint
