// SPDX-License-Identifier: Apache-2.0
// Reading a job script the way sbatch does (sbatch/opt.c:_opt_batch_script, get_argument;
// the option table of common/slurm_opt.c, read with getopt_long's rules).
#include "job/job_script.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

namespace greslint::job {
namespace {

enum class Arg : std::uint8_t { none, required, optional };

struct OptionSpec {
  std::string_view name;
  Arg arg;
  char letter;  ///< its short form, or 0
};

// sbatch's long options (common/slurm_opt.c), sorted by name; getopt_long takes any unique
// prefix of one.
constexpr OptionSpec kOptions[] = {
    {"accel-bind", Arg::required, 0}, {"account", Arg::required, 'A'}, {"acctg-freq", Arg::required, 0},
    {"array", Arg::required, 'a'}, {"batch", Arg::required, 0}, {"bb", Arg::required, 0},
    {"bbf", Arg::required, 0}, {"begin", Arg::required, 'b'}, {"chdir", Arg::required, 'D'},
    {"cluster", Arg::required, 0}, {"cluster-constraint", Arg::required, 0}, {"clusters", Arg::required, 'M'},
    {"comment", Arg::required, 0}, {"constraint", Arg::required, 'C'}, {"container", Arg::required, 0},
    {"container-id", Arg::required, 0}, {"context", Arg::required, 0}, {"contiguous", Arg::none, 0},
    {"core-spec", Arg::required, 'S'}, {"cores-per-socket", Arg::required, 0}, {"cpu-freq", Arg::required, 0},
    {"cpus-per-gpu", Arg::required, 0}, {"cpus-per-task", Arg::required, 'c'}, {"deadline", Arg::required, 0},
    {"delay-boot", Arg::required, 0}, {"dependency", Arg::required, 'd'}, {"distribution", Arg::required, 'm'},
    {"error", Arg::required, 'e'}, {"exclude", Arg::required, 'x'}, {"exclusive", Arg::optional, 0},
    {"export", Arg::required, 0}, {"export-file", Arg::required, 0}, {"extra", Arg::required, 0},
    {"extra-node-info", Arg::required, 'B'}, {"get-user-env", Arg::optional, 0}, {"gid", Arg::required, 0},
    {"gpu-bind", Arg::required, 0}, {"gpu-freq", Arg::required, 0}, {"gpus", Arg::required, 'G'},
    {"gpus-per-node", Arg::required, 0}, {"gpus-per-socket", Arg::required, 0},
    {"gpus-per-task", Arg::required, 0}, {"gres", Arg::required, 0}, {"gres-flags", Arg::required, 0},
    {"help", Arg::none, 'h'}, {"het-group", Arg::required, 0}, {"hint", Arg::required, 0},
    {"hold", Arg::none, 'H'}, {"ignore-pbs", Arg::none, 0}, {"input", Arg::required, 'i'},
    {"job-name", Arg::required, 'J'}, {"kill-on-invalid-dep", Arg::required, 0},
    {"licenses", Arg::required, 'L'}, {"mail-type", Arg::required, 0}, {"mail-user", Arg::required, 0},
    {"mcs-label", Arg::required, 0}, {"mem", Arg::required, 0}, {"mem-bind", Arg::required, 0},
    {"mem-per-cpu", Arg::required, 0}, {"mem-per-gpu", Arg::required, 0}, {"mincpus", Arg::required, 0},
    {"network", Arg::required, 0}, {"nice", Arg::optional, 0}, {"no-kill", Arg::optional, 'k'},
    {"no-requeue", Arg::none, 0}, {"nodefile", Arg::required, 'F'}, {"nodelist", Arg::required, 'w'},
    {"nodes", Arg::required, 'N'}, {"ntasks", Arg::required, 'n'}, {"ntasks-per-core", Arg::required, 0},
    {"ntasks-per-gpu", Arg::required, 0}, {"ntasks-per-node", Arg::required, 0},
    {"ntasks-per-socket", Arg::required, 0}, {"ntasks-per-tres", Arg::required, 0},
    {"open-mode", Arg::required, 0}, {"output", Arg::required, 'o'}, {"overcommit", Arg::none, 'O'},
    {"oversubscribe", Arg::none, 's'}, {"parsable", Arg::none, 0}, {"partition", Arg::required, 'p'},
    {"power", Arg::required, 0}, {"prefer", Arg::required, 0}, {"priority", Arg::required, 0},
    {"profile", Arg::required, 0}, {"propagate", Arg::optional, 0}, {"qos", Arg::required, 'q'},
    {"quiet", Arg::none, 'Q'}, {"reboot", Arg::none, 0}, {"requeue", Arg::none, 0},
    {"reservation", Arg::required, 0}, {"signal", Arg::required, 0}, {"sockets-per-node", Arg::required, 0},
    {"spread-job", Arg::none, 0}, {"switches", Arg::required, 0}, {"test-only", Arg::none, 0},
    {"thread-spec", Arg::required, 0}, {"threads-per-core", Arg::required, 0}, {"time", Arg::required, 't'},
    {"time-min", Arg::required, 0}, {"tmp", Arg::required, 0}, {"tres-per-task", Arg::required, 0},
    {"uid", Arg::required, 0}, {"usage", Arg::none, 0}, {"use-min-nodes", Arg::none, 0},
    {"verbose", Arg::none, 'v'}, {"version", Arg::none, 'V'}, {"wait", Arg::none, 'W'},
    {"wait-all-nodes", Arg::required, 0}, {"wckey", Arg::required, 0}, {"wrap", Arg::required, 0},
    // srun's and salloc's own (their lines are read with the same table)
    {"cpu-bind", Arg::required, 0}, {"exact", Arg::none, 0}, {"immediate", Arg::optional, 'I'},
    {"kill-on-bad-exit", Arg::optional, 'K'}, {"label", Arg::none, 'l'}, {"mpi", Arg::required, 0},
    {"multi-prog", Arg::none, 0}, {"no-shell", Arg::none, 0}, {"overlap", Arg::none, 0},
    {"pty", Arg::none, 0}, {"relative", Arg::required, 'r'}, {"unbuffered", Arg::none, 'u'},
    {"whole", Arg::none, 0}, {"x11", Arg::optional, 0}, {"bcast", Arg::optional, 0},
    {"disable-status", Arg::none, 'X'}, {"no-allocate", Arg::none, 'Z'}, {"epilog", Arg::required, 0},
    {"prolog", Arg::required, 0}, {"task-epilog", Arg::required, 0}, {"task-prolog", Arg::required, 0},
    {"cpus-per-gres", Arg::required, 0}, {"preserve-env", Arg::none, 'E'}, {"threads", Arg::required, 'T'},
    {"send-libs", Arg::optional, 0}, {"interactive", Arg::none, 0},
};

/// getopt_long: an exact name, else the one option `typed` is a prefix of (several: none).
const OptionSpec* find_long(std::string_view typed) {
  const OptionSpec* found = nullptr;
  for (const OptionSpec& o : kOptions) {
    if (o.name == typed) return &o;
    if (o.name.substr(0, typed.size()) == typed) {
      if (found) return nullptr;
      found = &o;
    }
  }
  return found;
}

const OptionSpec* find_short(char letter) {
  for (const OptionSpec& o : kOptions)
    if (o.letter == letter) return &o;
  return nullptr;
}

/// One word of a command line and where it was written.
struct Word {
  std::string text;
  std::uint32_t begin, end;
};

/// sbatch's get_argument: whitespace separates words; single or double quotes group; a
/// backslash takes the next character as it is; an unquoted '#' ends the line.
std::vector<Word> split_words(std::string_view text, std::uint32_t base) {
  std::vector<Word> words;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i >= text.size() || text[i] == '#') break;
    Word w{{}, base + std::uint32_t(i), 0};
    char quote = 0;
    for (; i < text.size() && (quote || !std::isspace(static_cast<unsigned char>(text[i]))); ++i) {
      const char c = text[i];
      if (c == '\\' && i + 1 < text.size()) {
        w.text += text[++i];
      } else if (quote && c == quote) {
        quote = 0;
      } else if (!quote && (c == '"' || c == '\'')) {
        quote = c;
      } else if (!quote && c == '#') {
        break;
      } else {
        w.text += c;
      }
    }
    w.end = base + std::uint32_t(i);
    words.push_back(std::move(w));
    if (i < text.size() && text[i] == '#') break;
  }
  return words;
}

JobOption make_option(const OptionSpec& spec, FileId file, const Word& first, Origin origin) {
  JobOption o;
  o.name = std::string(spec.name);
  o.span = Span{file, first.begin, first.end};
  o.value_span = o.span;
  o.origin = origin;
  return o;
}

void set_value(JobOption& o, std::string value, Span where) {
  o.value = std::move(value);
  o.has_value = true;
  o.value_span = where;
  o.span.end = std::max(o.span.end, where.end);
}

/// Reads the options of `words` from `at`; stops at the first word that is not an option
/// when `stop_at_operand` (a srun line's program), else reports it.
std::size_t read_words(const std::vector<Word>& words, std::size_t at, FileId file, Origin origin,
                       bool stop_at_operand, std::vector<JobOption>& out, std::vector<UnknownOption>& unknown);

std::size_t read_long(const std::vector<Word>& words, std::size_t at, FileId file, Origin origin,
                      std::vector<JobOption>& out, std::vector<UnknownOption>& unknown) {
  const Word& w = words[at];
  const std::string_view body = std::string_view(w.text).substr(2);
  const std::size_t eq = body.find('=');
  const OptionSpec* spec = find_long(body.substr(0, eq));
  if (!spec) {
    unknown.push_back({w.text, Span{file, w.begin, w.end}});
    return at + 1;
  }
  JobOption o = make_option(*spec, file, w, origin);
  if (eq != std::string_view::npos) {
    // The value's span: after the '=' when the word was written without quotes before it.
    const std::uint32_t value_begin = std::min(w.end, w.begin + 3 + std::uint32_t(eq));
    set_value(o, std::string(body.substr(eq + 1)), Span{file, value_begin, w.end});
  } else if (spec->arg == Arg::required && at + 1 < words.size()) {
    const Word& v = words[++at];
    set_value(o, v.text, Span{file, v.begin, v.end});
  }
  out.push_back(std::move(o));
  return at + 1;
}

std::size_t read_short(const std::vector<Word>& words, std::size_t at, FileId file, Origin origin,
                       std::vector<JobOption>& out, std::vector<UnknownOption>& unknown) {
  const Word& w = words[at];
  for (std::size_t k = 1; k < w.text.size(); ++k) {
    const OptionSpec* spec = find_short(w.text[k]);
    if (!spec) {
      unknown.push_back({"-" + std::string(1, w.text[k]), Span{file, w.begin, w.end}});
      return at + 1;
    }
    JobOption o = make_option(*spec, file, w, origin);
    if (spec->arg != Arg::none && k + 1 < w.text.size()) {
      const std::uint32_t value_begin = std::min(w.end, w.begin + std::uint32_t(k) + 1);
      set_value(o, w.text.substr(k + 1), Span{file, value_begin, w.end});
      out.push_back(std::move(o));
      return at + 1;
    }
    if (spec->arg == Arg::required && at + 1 < words.size()) {
      const Word& v = words[++at];
      set_value(o, v.text, Span{file, v.begin, v.end});
      out.push_back(std::move(o));
      return at + 1;
    }
    out.push_back(std::move(o));
  }
  return at + 1;
}

std::size_t read_words(const std::vector<Word>& words, std::size_t at, FileId file, Origin origin,
                       bool stop_at_operand, std::vector<JobOption>& out, std::vector<UnknownOption>& unknown) {
  while (at < words.size()) {
    const std::string& t = words[at].text;
    if (t == "--") return at + 1;
    if (t.size() > 2 && t[0] == '-' && t[1] == '-') {
      at = read_long(words, at, file, origin, out, unknown);
    } else if (t.size() > 1 && t[0] == '-') {
      at = read_short(words, at, file, origin, out, unknown);
    } else if (stop_at_operand) {
      return at;
    } else {
      unknown.push_back({t, Span{file, words[at].begin, words[at].end}});
      ++at;
    }
  }
  return at;
}

constexpr std::string_view kVisibilityVariables[] = {"CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES",
                                                     "ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES",
                                                     "GPU_DEVICE_ORDINAL", "ZE_AFFINITY_MASK"};

bool word_boundary_before(std::string_view line, std::size_t at) {
  if (at == 0) return true;
  const char c = line[at - 1];
  return std::isspace(static_cast<unsigned char>(c)) || c == ';' || c == '&' || c == '|' || c == '(' ||
         c == '"' || c == '\'' || c == '[' || c == '{';
}

/// `VAR=...`, `export VAR=...`, `setenv VAR ...`, `unset VAR`, os.environ["VAR"] = ...: the
/// job replacing the devices Slurm gave it.
void find_visibility_writes(std::string_view line, FileId file, std::uint32_t base,
                            std::vector<VisibilityWrite>& out) {
  for (std::string_view var : kVisibilityVariables) {
    for (std::size_t at = line.find(var); at != std::string_view::npos; at = line.find(var, at + 1)) {
      if (!word_boundary_before(line, at)) continue;
      std::string_view before = line.substr(0, at);
      while (!before.empty() && std::isspace(static_cast<unsigned char>(before.back()))) before.remove_suffix(1);
      std::string_view after = line.substr(at + var.size());
      const bool assigned = !after.empty() && after[0] == '=';
      const bool by_word = (before.size() >= 6 && before.substr(before.size() - 6) == "setenv") ||
                           (before.size() >= 5 && before.substr(before.size() - 5) == "unset");
      const bool python = after.size() >= 2 && (after.substr(0, 2) == "\"]" || after.substr(0, 2) == "']") &&
                          after.find('=') != std::string_view::npos && before.size() >= 1 &&
                          (before.back() == '"' || before.back() == '\'');
      if (assigned || by_word || python)
        out.push_back({std::string(var), Span{file, base + std::uint32_t(at), base + std::uint32_t(at + var.size())}});
    }
  }
}

std::string_view first_word(std::string_view line, std::size_t& end) {
  std::size_t b = 0;
  while (b < line.size() && std::isspace(static_cast<unsigned char>(line[b]))) ++b;
  end = b;
  while (end < line.size() && !std::isspace(static_cast<unsigned char>(line[end]))) ++end;
  return line.substr(b, end - b);
}

/// A shell line that runs srun or salloc (possibly after `exec` or `time`).
void find_step(std::string_view line, FileId file, std::uint32_t base, std::vector<StepLine>& steps) {
  std::size_t end = 0;
  std::string_view word = first_word(line, end);
  std::size_t offset = 0;
  while (word == "exec" || word == "time" || word == "command") {
    offset += end;
    word = first_word(line.substr(offset), end);
  }
  if (word != "srun" && word != "salloc") return;
  StepLine step;
  step.command = std::string(word);
  step.span = Span{file, base + std::uint32_t(offset + end - word.size()), base + std::uint32_t(offset + end)};
  const std::size_t rest = offset + end;
  std::vector<UnknownOption> ignored;
  const auto words = split_words(line.substr(rest), base + std::uint32_t(rest));
  read_words(words, 0, file, Origin::step, true, step.options, ignored);
  steps.push_back(std::move(step));
}

/// Whether sbatch stops reading directives at this line: anything but blanks and comments.
bool is_command(std::string_view line) {
  for (char c : line) {
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    return c != '#';
  }
  return false;
}

}  // namespace

void read_options(std::string_view text, FileId file, std::uint32_t begin, Origin origin,
                  std::vector<JobOption>& options, std::vector<UnknownOption>& unknown) {
  read_words(split_words(text, begin), 0, file, origin, false, options, unknown);
}

const JobOption* JobScript::last(std::string_view name) const {
  for (auto it = options.rbegin(); it != options.rend(); ++it)
    if (it->name == name) return &*it;
  return nullptr;
}

JobScript read_job_script(const SourceManager& sources, FileId file, FileId args) {
  JobScript script;
  script.file = file;
  const std::string_view text = sources.text(file);
  script.has_shebang = text.substr(0, 2) == "#!";
  bool directives = true;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t nl = text.find('\n', at);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string_view line = text.substr(at, nl - at);
    const auto base = std::uint32_t(at);
    // Only at the start of the line, in this case; #SLURM is the older spelling sbatch
    // still reads (with an error line asking for #SBATCH).
    if (directives && (line.substr(0, 7) == "#SBATCH" || line.substr(0, 6) == "#SLURM")) {
      const std::size_t skip = line.substr(0, 7) == "#SBATCH" ? 7 : 6;
      read_options(line.substr(skip), file, base + std::uint32_t(skip), Origin::directive, script.options,
                   script.unknown);
    } else if (is_command(line)) {
      directives = false;
      find_step(line, file, base, script.steps);
      find_visibility_writes(line, file, base, script.visibility_writes);
    }
    at = nl + 1;
  }
  if (args.valid()) read_options(sources.text(args), args, 0, Origin::command_line, script.options, script.unknown);
  return script;
}

}  // namespace greslint::job
