#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The bash and zsh completions: they know every command and option the binary's --help
lists, `cmake --install` puts them where bash-completion and zsh look, and bash really
completes with them."""
import os
import re
import shutil
import subprocess
import tempfile
import unittest

GRESLINT = os.environ.get("GRESLINT", "greslint")
SOURCE = os.path.abspath(os.environ.get("GRESLINT_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", "..")))
BUILD = os.environ.get("GRESLINT_BUILD_DIR", "")
BASH = os.path.join(SOURCE, "scripts", "completion", "greslint.bash")
ZSH = os.path.join(SOURCE, "scripts", "completion", "_greslint")


def help_text(*command):
    p = subprocess.run([GRESLINT, *command, "--help"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return p.stdout


def subcommands():
    text = help_text().split("Subcommands:", 1)[1]
    return re.findall(r"^  (\S+)", text, re.M)


def options(command):
    text = help_text(command).split("Options:", 1)[1].split("Subcommands:", 1)[0]
    found = set()
    for line in text.splitlines():
        m = re.match(r"^  (\S+)", line)
        if m:
            found.update(name for name in m.group(1).split(",") if name.startswith("-"))
    return found


class Completions(unittest.TestCase):
    def test_every_command_and_option_of_help_is_completed(self):
        commands = subcommands()
        self.assertIn("lint", commands)
        self.assertIn("node-check", commands)
        for path in (BASH, ZSH):
            with open(path) as f:
                script = f.read()
            words = set(re.findall(r"(?<![\w-])(-{1,2}[a-z][a-z-]*|[a-z][a-z-]+)", script))
            for command in commands:
                self.assertIn(command, words, (path, command))
                for option in options(command):
                    self.assertIn(option, words, (path, command, option))

    def complete(self, line):
        """What bash's completion function offers for the last word of `line`."""
        words = line.split(" ")
        script = f"""
source {BASH}
COMP_WORDS=({" ".join(repr(w) for w in words)})
COMP_CWORD={len(words) - 1}
COMP_LINE={line!r}
COMP_POINT=${{#COMP_LINE}}
_greslint
printf '%s\\n' "${{COMPREPLY[@]}}"
"""
        env = dict(os.environ, PATH=os.path.dirname(os.path.abspath(GRESLINT)) + ":" + os.environ["PATH"])
        p = subprocess.run(["bash", "--norc", "-c", script], capture_output=True, text=True, env=env,
                           cwd=tempfile.gettempdir())
        self.assertEqual(p.returncode, 0, p.stderr)
        return set(p.stdout.split())

    def test_bash_completes_commands_options_and_values(self):
        self.assertEqual(self.complete("greslint nod"), {"nodes", "node-check"})
        self.assertIn("--statistics", self.complete("greslint lint --st"))
        self.assertIn("--statistics", self.complete("greslint cluster/ --st"))  # lint is the default command
        self.assertNotIn("--statistics", self.complete("greslint nodes --st"))
        self.assertIn("concise", self.complete("greslint lint --format "))
        self.assertEqual(self.complete("greslint nodes --format "), {"text", "json"})
        self.assertEqual(self.complete("greslint lint --min-severity "), {"error", "warning", "note"})
        self.assertIn("26.05", self.complete("greslint lint --slurm-version "))
        self.assertIn("GRS301", self.complete("greslint explain GRS30"))

    @unittest.skipUnless(shutil.which("zsh"), "zsh is not installed")
    def test_zsh_script_parses_and_loads(self):
        p = subprocess.run(["zsh", "-n", ZSH], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        d = os.path.dirname(ZSH)
        p = subprocess.run(["zsh", "-f", "-c", f"fpath=({d} $fpath); autoload -Uz compinit && compinit -u -D && "
                            "autoload -Uz _greslint && whence -w _greslint && echo $_comps[greslint]"],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("_greslint", p.stdout)

    @unittest.skipUnless(BUILD, "needs the build directory (GRESLINT_BUILD_DIR)")
    def test_cmake_install_puts_them_where_the_shells_look(self):
        prefix = tempfile.mkdtemp(prefix="greslint-install-")
        try:
            p = subprocess.run(["cmake", "--install", BUILD, "--prefix", prefix], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            bash = os.path.join(prefix, "share", "bash-completion", "completions", "greslint")
            zsh = os.path.join(prefix, "share", "zsh", "site-functions", "_greslint")
            for installed, source in ((bash, BASH), (zsh, ZSH)):
                with open(installed) as a, open(source) as b:
                    self.assertEqual(a.read(), b.read(), installed)
        finally:
            shutil.rmtree(prefix)


if __name__ == "__main__":
    unittest.main()
