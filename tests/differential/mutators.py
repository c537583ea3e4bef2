# SPDX-License-Identifier: Apache-2.0
"""mutators.py - the edits and mistakes of real Slurm admins, as text operators.

Every operator takes a Random and a Mutant (the files of one cluster configuration)
and edits the text the way an admin would: a count bumped, a range retyped, a line
split, a key misspelt. It returns a short description of what it did, or None when
the configuration has nothing it applies to. Operators never touch case.conf.
Standard library only.
"""

import re

# A key=value token, as far as the operators need it (Slurm's own lexer is more lenient).
TOKEN = r"(?<![\w.])%s\s*=\s*(\S+)"


class Mutant:
    """The files of one configuration: {relative path: text}, plus the probed nodes
    and the site keys the sandbox keeps as written (case.conf's KEEP=)."""

    def __init__(self, files, nodes, keep=""):
        self.files = dict(files)
        self.nodes = list(nodes)
        self.keep = keep

    @property
    def slurm(self):
        return self.files.get("slurm.conf", "")

    @slurm.setter
    def slurm(self, text):
        self.files["slurm.conf"] = text

    @property
    def gres(self):
        return self.files.get("gres.conf", "")

    @gres.setter
    def gres(self, text):
        self.files["gres.conf"] = text


def lines_matching(text, pattern):
    """Indexes of the physical lines of text that match pattern (case-insensitive)."""
    rx = re.compile(pattern, re.IGNORECASE)
    return [i for i, line in enumerate(text.split("\n"))
            if rx.search(line) and not line.lstrip().startswith("#")]


def edit_line(text, index, fn):
    lines = text.split("\n")
    lines[index] = fn(lines[index])
    return "\n".join(lines)


def pick_line(rng, text, pattern):
    found = lines_matching(text, pattern)
    return rng.choice(found) if found else None


def sub_value(rng, text, key, choose):
    """Replace the value of key on one random line that has it; choose(rng, old)
    gives the new value (None: remove the token; old: nothing to do). Returns
    (text, old, new) or None."""
    i = pick_line(rng, text, TOKEN % key)
    if i is None:
        return None
    line = text.split("\n")[i]
    m = re.search(TOKEN % key, line, re.IGNORECASE)
    old = m.group(1)
    new = choose(rng, old)
    if new == old:
        return None
    if new is None:
        repl = line[:m.start()].rstrip() + line[m.end():]
    else:
        repl = line[:m.start(1)] + new + line[m.end(1):]
    return edit_line(text, i, lambda _: repl), old, new


def bump_number(rng, number):
    n = int(number)
    return str(rng.choice([max(0, n - 1), n + 1, n * 2, max(1, n // 2), 0, 1, 8]))


# ---------------------------------------------------------------------------
# operators: name -> function(rng, mutant) -> description or None
# ---------------------------------------------------------------------------
def op_count(rng, m):
    """A GPU count changed in slurm.conf's Gres= or gres.conf's Count=."""
    if rng.random() < 0.6:
        def choose(rng, old):
            parts = old.split(",")
            k = rng.randrange(len(parts))
            fields = parts[k].split(":")
            if fields[-1].isdigit():
                fields[-1] = bump_number(rng, fields[-1])
            else:
                fields.append(str(rng.choice([1, 2, 4, 8])))
            parts[k] = ":".join(fields)
            return ",".join(parts)
        r = sub_value(rng, m.slurm, "Gres", choose)
        if r:
            m.slurm = r[0]
            return "slurm.conf Gres=%s -> %s" % (r[1], r[2])
    r = sub_value(rng, m.gres, "Count", lambda rng, old: bump_number(rng, re.sub(r"\D.*", "", old) or "1"))
    if r:
        m.gres = r[0]
        return "gres.conf Count=%s -> %s" % (r[1], r[2])
    return None


def op_file_range(rng, m):
    """A File= range retyped: one more or fewer device, shifted, or listed."""
    def choose(rng, old):
        mm = re.match(r"(.*?)\[(\d+)-(\d+)\](.*)$", old)
        if mm:
            pre, lo, hi, post = mm.group(1), int(mm.group(2)), int(mm.group(3)), mm.group(4)
            return rng.choice([
                "%s[%d-%d]%s" % (pre, lo, hi + 1, post),
                "%s[%d-%d]%s" % (pre, lo, max(lo, hi - 1), post),
                "%s[%d-%d]%s" % (pre, lo + 1, hi + 1, post),
                ",".join("%s%d%s" % (pre, n, post) for n in range(lo, hi + 1)),
                "%s[%d-%d]%s" % (pre, hi, lo, post) if hi > lo else "%s%d%s" % (pre, lo, post),
                "%s%d%s" % (pre, lo, post)])
        mm = re.match(r"(.*?)(\d+)$", old)
        if mm:
            n = int(mm.group(2))
            return rng.choice(["%s[%d-%d]" % (mm.group(1), n, n + 1), "%s%d" % (mm.group(1), n + 1)])
        return old
    r = sub_value(rng, m.gres, "File", choose)
    if not r:
        return None
    m.gres = r[0]
    return "File=%s -> %s" % (r[1], r[2])


def op_cores(rng, m):
    """Cores= retyped, dropped, or added."""
    if rng.random() < 0.3:
        i = pick_line(rng, m.gres, r"\bName\s*=\s*gpu\b(?!.*\bCores\s*=)")
        if i is not None:
            cores = rng.choice(["0-15", "0-31", "32-63", "0-63", "0,2,4,6", "64-95", "0-7"])
            m.gres = edit_line(m.gres, i, lambda l: l.rstrip() + " Cores=" + cores)
            return "Cores=%s added" % cores

    def choose(rng, old):
        mm = re.match(r"(\d+)-(\d+)$", old)
        if mm:
            lo, hi = int(mm.group(1)), int(mm.group(2))
            return rng.choice(["%d-%d" % (lo, hi * 2 + 1), "%d-%d" % (lo, (lo + hi) // 2),
                               "%d-%d" % (hi + 1, hi * 2 + 1), None, "%d,%d" % (lo, hi), "%d-%d" % (lo, hi + 1)])
        return rng.choice([None, "0-7"])
    r = sub_value(rng, m.gres, "Cores", choose)
    if not r:
        return None
    m.gres = r[0]
    return "Cores=%s -> %s" % (r[1], r[2])


def respell(rng, word):
    choices = [word.upper(), word.capitalize(), word + "s", word[:-1] if len(word) > 2 else word + "x"]
    if len(word) > 3:
        choices.append(word[0] + word[2:])
    return rng.choice([c for c in choices if c != word] or [word + "x"])


def op_type_spelling(rng, m):
    """Type= spelt differently in one file (case, typo), or dropped."""
    if rng.random() < 0.5:
        r = sub_value(rng, m.gres, "Type", lambda rng, old: rng.choice([respell(rng, old), None]))
        if r:
            m.gres = r[0]
            return "gres.conf Type=%s -> %s" % (r[1], r[2])

    def choose(rng, old):
        parts = old.split(":")
        if len(parts) >= 3 and not parts[1].isdigit():
            parts[1] = respell(rng, parts[1])
            return ":".join(parts)
        if len(parts) == 2 and parts[1].isdigit():
            return "%s:%s:%s" % (parts[0], rng.choice(["a100", "A100", "v100"]), parts[1])
        return old
    r = sub_value(rng, m.slurm, "Gres", choose)
    if not r:
        return None
    m.slurm = r[0]
    return "slurm.conf Gres=%s -> %s" % (r[1], r[2])


def op_name_spelling(rng, m):
    """The GRES name spelt differently: GPU, Gpu, gpus, a typo."""
    if rng.random() < 0.5:
        r = sub_value(rng, m.gres, "Name", lambda rng, old: respell(rng, old))
        if r:
            m.gres = r[0]
            return "gres.conf Name=%s -> %s" % (r[1], r[2])
    r = sub_value(rng, m.slurm, "Gres", lambda rng, old: respell(rng, old.split(":")[0]) + old[len(old.split(":")[0]):])
    if not r:
        return None
    m.slurm = r[0]
    return "slurm.conf Gres=%s -> %s" % (r[1], r[2])


def op_topology(rng, m):
    """A topology key of a NodeName line changed or dropped."""
    key = rng.choice(["Sockets", "CoresPerSocket", "ThreadsPerCore", "CPUs", "Boards"])
    r = sub_value(rng, m.slurm, key, lambda rng, old: rng.choice(
        [bump_number(rng, old) if old.isdigit() else "2", None, "1", "2", "4"]))
    if r:
        m.slurm = r[0]
        return "%s=%s -> %s" % (key, r[1], r[2])
    i = pick_line(rng, m.slurm, r"^\s*NodeName\s*=\s*(?!DEFAULT)")
    if i is None:
        return None
    val = rng.choice(["1", "2", "4", "16", "32"])
    m.slurm = edit_line(m.slurm, i, lambda l: l.rstrip() + " %s=%s" % (key, val))
    return "%s=%s added" % (key, val)


def op_grestypes(rng, m):
    """GresTypes= edited: a name dropped, added, repeated, or the line removed."""
    def choose(rng, old):
        names = old.split(",")
        return rng.choice([
            ",".join(names[1:]) or None, old + ",shard", old + ",mps", old + "," + names[0],
            ",".join(reversed(names)), old.upper(), old + ",nic", None])
    r = sub_value(rng, m.slurm, "GresTypes", choose)
    if r:
        m.slurm = r[0]
        return "GresTypes=%s -> %s" % (r[1], r[2])
    m.slurm = m.slurm.rstrip("\n") + "\nGresTypes=gpu\n"
    return "GresTypes=gpu added"


def op_mps_shard(rng, m):
    """mps or shard added: GresTypes, the node's Gres= and gres.conf lines."""
    kind = rng.choice(["shard", "mps"])
    i = pick_line(rng, m.slurm, r"^\s*NodeName\s*=.*\bGres\s*=\s*\S*gpu")
    if i is None:
        return None
    count = rng.choice([4, 8, 16, 32, 100])
    m.slurm = edit_line(m.slurm, i, lambda l: re.sub(r"(\bGres\s*=\s*)(\S+)", r"\g<1>\g<2>,%s:%d" % (kind, count), l, 1,
                                                    re.IGNORECASE))
    if rng.random() < 0.8:
        if re.search(TOKEN % "GresTypes", m.slurm, re.IGNORECASE):
            m.slurm = re.sub(r"(?im)^(\s*GresTypes\s*=\s*)(\S+)", r"\g<1>\g<2>,%s" % kind, m.slurm, 1)
        else:
            m.slurm = m.slurm.rstrip("\n") + "\nGresTypes=gpu,%s\n" % kind
    node = re.search(r"NodeName\s*=\s*(\S+)", m.slurm.split("\n")[i], re.IGNORECASE).group(1)
    shape = rng.random()
    if shape < 0.4:
        m.gres = m.gres.rstrip("\n") + "\nNodeName=%s Name=%s Count=%d\n" % (node, kind, count)
    elif shape < 0.7:
        f = re.search(r"File\s*=\s*(\S+)", m.gres, re.IGNORECASE)
        path = f.group(1) if f else "/dev/nvidia[0-3]"
        m.gres = m.gres.rstrip("\n") + "\nNodeName=%s Name=%s Count=%d File=%s\n" % (node, kind, count, path)
    return "%s:%d on %s" % (kind, count, node)


def op_autodetect(rng, m):
    """AutoDetect= added: global, on a NodeName line, or on a Name= line."""
    value = rng.choice(["off", "nvml", "rsmi", "nvidia", "bogus", "NVML"])
    where = rng.random()
    if where < 0.4:
        m.gres = "AutoDetect=%s\n" % value + m.gres
        return "AutoDetect=%s global" % value
    i = pick_line(rng, m.gres, r"\bName\s*=")
    if i is None:
        m.gres = "AutoDetect=%s\n" % value + m.gres
        return "AutoDetect=%s global" % value
    if where < 0.7:
        node = re.search(r"NodeName\s*=\s*(\S+)", m.gres.split("\n")[i], re.IGNORECASE)
        if node:
            m.gres = edit_line(m.gres, i, lambda l: "NodeName=%s AutoDetect=%s\n%s" % (node.group(1), value, l))
            return "NodeName=%s AutoDetect=%s line" % (node.group(1), value)
    m.gres = edit_line(m.gres, i, lambda l: l.rstrip() + " AutoDetect=%s" % value)
    return "AutoDetect=%s on a Name= line" % value


def repad(rng, expr):
    """gpu[01-04] -> gpu[1-4] or gpu[001-004]; gpu01 -> gpu1."""
    def fix(mm):
        lo, hi = mm.group(1), mm.group(2)
        width = rng.choice([1, len(lo) + 1, max(1, len(lo) - 1)])
        return "[%s-%s]" % (str(int(lo)).zfill(width), str(int(hi)).zfill(width))
    new = re.sub(r"\[(\d+)-(\d+)\]", fix, expr, count=1)
    if new == expr:
        new = re.sub(r"0(\d)\b", r"\1", expr, count=1)
    return new


def op_nodename_padding(rng, m):
    """NodeName zero padding changed in gres.conf or in slurm.conf."""
    if rng.random() < 0.6 and m.gres:
        r = sub_value(rng, m.gres, "NodeName", lambda rng, old: repad(rng, old))
        if r:
            m.gres = r[0]
            return "gres.conf NodeName=%s -> %s" % (r[1], r[2])
    i = pick_line(rng, m.slurm, r"^\s*NodeName\s*=\s*(?!DEFAULT)")
    if i is None:
        return None
    r = sub_value(rng, m.slurm, "NodeName", lambda rng, old: repad(rng, old) if old.lower() != "default" else old)
    if not r:
        return None
    m.slurm = r[0]
    return "slurm.conf NodeName=%s -> %s" % (r[1], r[2])


def op_nodename_split(rng, m):
    """A NodeName range line split in two (or made to overlap), in either file."""
    text_attr = "gres" if rng.random() < 0.5 and re.search(r"NodeName\s*=\s*\S*\[", m.gres) else "slurm"
    text = getattr(m, text_attr)
    i = pick_line(rng, text, r"NodeName\s*=\s*\S*\[\d+-\d+\]")
    if i is None:
        return None
    line = text.split("\n")[i]
    mm = re.search(r"(NodeName\s*=\s*)(\S*?)\[(\d+)-(\d+)\](\S*)", line, re.IGNORECASE)
    lo, hi = mm.group(3), mm.group(4)
    w = len(lo)
    a, b = int(lo), int(hi)
    if b <= a:
        return None
    mid = rng.randint(a, b - 1)
    overlap = rng.random() < 0.25
    first = "%s[%s-%s]%s" % (mm.group(2), lo, str(mid).zfill(w), mm.group(5))
    second = "%s[%s-%s]%s" % (mm.group(2), str(mid + (0 if overlap else 1)).zfill(w), hi, mm.group(5))
    one = line[:mm.start(2)] + first + line[mm.end(5):]
    two = line[:mm.start(2)] + second + line[mm.end(5):]
    setattr(m, text_attr, edit_line(text, i, lambda _: one + "\n" + two))
    return "%s split at %d%s" % (text_attr + ".conf", mid, " (overlapping)" if overlap else "")


def op_default_line(rng, m):
    """A NodeName=DEFAULT line added (before or after the nodes), or a key moved into it."""
    i = pick_line(rng, m.slurm, r"^\s*NodeName\s*=\s*(?!DEFAULT)")
    if i is None:
        return None
    line = m.slurm.split("\n")[i]
    key = rng.choice(["Gres", "Sockets", "CoresPerSocket", "ThreadsPerCore", "RealMemory", "State"])
    mm = re.search(TOKEN % key, line, re.IGNORECASE)
    if mm and rng.random() < 0.6:
        token = line[mm.start():mm.end()]
        rest = line[:mm.start()].rstrip() + line[mm.end():]
        m.slurm = edit_line(m.slurm, i, lambda _: "NodeName=DEFAULT " + token + "\n" + rest)
        return "%s moved into NodeName=DEFAULT" % key
    value = {"Gres": "gpu:2", "Sockets": "2", "CoresPerSocket": "8", "ThreadsPerCore": "2",
             "RealMemory": "1000", "State": "UNKNOWN"}[key]
    after = rng.random() < 0.3
    new = "NodeName=DEFAULT %s=%s" % (key, value)
    m.slurm = edit_line(m.slurm, i, lambda l: l + "\n" + new if after else new + "\n" + l)
    return "NodeName=DEFAULT %s=%s %s" % (key, value, "after" if after else "before")


def op_continuation_comment(rng, m):
    """A line broken with a backslash continuation, a comment added inline or glued on."""
    attr = rng.choice(["slurm", "gres"]) if m.gres else "slurm"
    text = getattr(m, attr)
    i = pick_line(rng, text, r"\S+=\S+\s+\S+=")
    if i is None:
        return None
    line = text.split("\n")[i]
    spaces = [mm.start() for mm in re.finditer(r"\s+(?=\S+=)", line)]
    if not spaces:
        return None
    cut = rng.choice(spaces)
    kind = rng.choice(["continuation", "continuation-no-space", "comment", "comment-glued", "trailing-blank"])
    if kind == "continuation":
        new = line[:cut] + " \\\n   " + line[cut:].lstrip()
    elif kind == "continuation-no-space":
        new = line[:cut] + "\\\n" + line[cut:].lstrip()
    elif kind == "comment":
        new = line + "   # edited by admin"
    elif kind == "comment-glued":
        new = line + "#note"
    else:
        new = line + "  \t"
    setattr(m, attr, edit_line(text, i, lambda _: new))
    return "%s.conf %s" % (attr, kind)


def op_partition(rng, m):
    """A partition added, or one's Nodes= changed."""
    nodes = re.findall(r"(?im)^\s*NodeName\s*=\s*(?!DEFAULT)(\S+)", m.slurm)
    if not nodes:
        return None
    if rng.random() < 0.5:
        r = sub_value(rng, m.slurm, "Nodes", lambda rng, old: rng.choice(
            ["ALL", old + ",ghost01", nodes[0], repad(rng, old)]))
        if r:
            m.slurm = r[0]
            return "Nodes=%s -> %s" % (r[1], r[2])
    members = rng.choice([nodes[0], "ALL", ",".join(nodes), nodes[0] + ",nosuch[1-2]"])
    m.slurm = m.slurm.rstrip("\n") + "\nPartitionName=fuzz Nodes=%s MaxTime=%s State=UP\n" % (
        members, rng.choice(["INFINITE", "1-00:00:00", "60"]))
    return "PartitionName=fuzz Nodes=%s" % members


def op_selecttype(rng, m):
    """SelectType or SelectTypeParameters changed, added or dropped."""
    if rng.random() < 0.5:
        value = rng.choice(["select/cons_tres", "select/cons_res", "select/linear", None])
        key = "SelectType"
    else:
        value = rng.choice(["CR_Core", "CR_Core_Memory", "CR_CPU", "CR_Socket_Memory", "CR_Memory", "CR_Bogus", None])
        key = "SelectTypeParameters"
    r = sub_value(rng, m.slurm, key, lambda rng, old: value)
    if r:
        m.slurm = r[0]
        return "%s=%s -> %s" % (key, r[1], r[2])
    if value is None:
        return None
    m.slurm = m.slurm.rstrip("\n") + "\n%s=%s\n" % (key, value)
    return "%s=%s added" % (key, value)


# Accounting keys the sandbox passes through to Slurm (the accounting_storage and
# jobacct_gather keys are replaced by the harness, so Slurm would never see them).
ACCOUNTING = ["AccountingStoreFlags=job_comment", "AccountingStoreFlags=job_script,job_env",
              "AccountingStoreFlags=bogus", "AccountingStoreJobComment=YES",
              "PriorityWeightTRES=CPU=1000,GRES/gpu=3000", "PriorityWeightTRES=gres/gpu=bogus"]


def op_accounting(rng, m):
    """An accounting key added (valid, misspelt or removed ones)."""
    line = rng.choice(ACCOUNTING)
    m.slurm = m.slurm.rstrip("\n") + "\n" + line + "\n"
    return line


def op_include(rng, m):
    """Part of a file moved into an Include'd file next to it (gres.conf's body, or the
    NodeName lines of slurm.conf), as sites do to share lines between clusters."""
    if rng.random() < 0.5 and m.gres.strip():
        name = rng.choice(["gres.d.conf", "gres-nodes.conf"])
        keep = rng.random() < 0.3
        m.files[name] = m.gres
        m.gres = ("# site gres.conf\n" if keep else "") + "Include %s\n" % name
        return "gres.conf body -> Include %s" % name
    nodes = lines_matching(m.slurm, r"^\s*NodeName\s*=")
    if not nodes:
        return None
    lines = m.slurm.split("\n")
    m.files["nodes.conf"] = "\n".join(lines[i] for i in nodes) + "\n"
    first = nodes[0]
    out = [l for i, l in enumerate(lines) if i not in nodes[1:]]
    out[first] = rng.choice(["Include nodes.conf", "include nodes.conf", "Include  nodes.conf"])
    m.slurm = "\n".join(out)
    return "NodeName lines -> %s" % out[first]


# Keys that do not exist, were removed, or are misspelt: what upgrades and typos leave.
UNKNOWN = {"slurm": ["GresType=gpu", "FastSchedule=1", "FastSchedule=0", "CacheGroups=0",
                     "SchedulerPort=7321", "MaxJobCount=10000", "DefMemPerGPU=1000",
                     "SlurmctldParameters=enable_configless", "TreeWidth=50", "SelectTypeParameter=CR_Core"],
           "gres": ["Fille=/dev/nvidia0", "Typ=a100", "Flags=nvidia_gpu_env", "Flags=bogus",
                    "Links=-1,0"]}


def op_unknown_key(rng, m):
    """An unknown, removed or misspelt key added, in slurm.conf or gres.conf."""
    if m.gres and rng.random() < 0.4:
        token = rng.choice(UNKNOWN["gres"])
        i = pick_line(rng, m.gres, r"\bName\s*=")
        if i is not None and rng.random() < 0.7:
            m.gres = edit_line(m.gres, i, lambda l: l.rstrip() + " " + token)
            return "gres.conf line + %s" % token
        m.gres = m.gres.rstrip("\n") + "\n" + token + "\n"
        return "gres.conf + %s" % token
    token = rng.choice(UNKNOWN["slurm"])
    m.slurm = m.slurm.rstrip("\n") + "\n" + token + "\n"
    return "slurm.conf + %s" % token


def op_count_suffix(rng, m):
    """A count written with a suffix (K, M, G, T, lower case, a typo)."""
    suffix = rng.choice(["K", "k", "M", "G", "T", "X", "KB"])
    if rng.random() < 0.5:
        r = sub_value(rng, m.gres, "Count", lambda rng, old: re.sub(r"\D.*", "", old) + suffix)
        if r:
            m.gres = r[0]
            return "Count=%s -> %s" % (r[1], r[2])

    def choose(rng, old):
        parts = old.split(",")
        k = rng.randrange(len(parts))
        if re.search(r":\d+$", parts[k]):
            parts[k] += suffix
            return ",".join(parts)
        return old
    r = sub_value(rng, m.slurm, "Gres", choose)
    if not r:
        return None
    m.slurm = r[0]
    return "Gres=%s -> %s" % (r[1], r[2])


OPERATORS = {
    "count": op_count, "file_range": op_file_range, "cores": op_cores,
    "type_spelling": op_type_spelling, "name_spelling": op_name_spelling,
    "topology": op_topology, "grestypes": op_grestypes, "mps_shard": op_mps_shard,
    "autodetect": op_autodetect, "nodename_padding": op_nodename_padding,
    "nodename_split": op_nodename_split, "default_line": op_default_line,
    "continuation_comment": op_continuation_comment, "partition": op_partition,
    "selecttype": op_selecttype, "accounting": op_accounting, "include": op_include,
    "unknown_key": op_unknown_key, "count_suffix": op_count_suffix,
}
