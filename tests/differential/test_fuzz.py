#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Unit tests of the differential fuzzer's mutants (no daemons, no greslint)."""

import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
import fuzz  # noqa: E402
import mutators  # noqa: E402

CORPUS = fuzz.corpus(os.path.join(fuzz.CONFORMANCE, "cases"))


class Mutants(unittest.TestCase):
    def test_a_seed_and_index_always_give_the_same_mutant(self):
        for i in range(30):
            a = fuzz.make_mutant(5, i, CORPUS)
            b = fuzz.make_mutant(5, i, CORPUS)
            self.assertEqual((a[0], a[1].files, a[2]), (b[0], b[1].files, b[2]))

    def test_seeds_differ(self):
        first = [fuzz.make_mutant(1, i, CORPUS)[1].files for i in range(20)]
        other = [fuzz.make_mutant(2, i, CORPUS)[1].files for i in range(20)]
        self.assertNotEqual(first, other)

    def test_every_mutant_is_edited_and_keeps_its_nodes(self):
        for i in range(200):
            base, m, ops = fuzz.make_mutant(3, i, CORPUS)
            with self.subTest(mutant=i, base=base):
                self.assertTrue(1 <= len(ops) <= 3)
                original = next(files for name, files, _, _ in CORPUS if name == base)
                self.assertNotEqual(m.files, original)
                self.assertEqual(m.nodes, next(n for name, _, n, _ in CORPUS if name == base))

    def test_every_operator_applies_somewhere_in_the_corpus(self):
        import random
        for name, op in mutators.OPERATORS.items():
            with self.subTest(operator=name):
                hits = 0
                for k, (_, files, nodes, _) in enumerate(CORPUS):
                    m = mutators.Mutant(files, nodes)
                    if op(random.Random(k), m):
                        hits += 1
                        self.assertNotEqual(m.files, files)
                self.assertGreater(hits, len(CORPUS) // 10)

    def test_the_corpus_leaves_out_slow_cases(self):
        names = {name for name, _, _, _ in CORPUS}
        self.assertNotIn("a13b_include_relative_to_slurmconf_dir", names)   # 60 s Include retry
        self.assertNotIn("k_missing_device_files", names)                  # DEVICES=host
        self.assertIn("a_correct_4gpu", names)

    def test_write_gives_a_case_folder(self):
        with tempfile.TemporaryDirectory() as tmp:
            base, m, ops = fuzz.make_mutant(9, 4, CORPUS)
            fuzz.write_mutant(m, base, ops, tmp)
            with open(os.path.join(tmp, "case.conf")) as f:
                conf = f.read()
            self.assertIn("NODES=" + " ".join(m.nodes), conf)
            self.assertTrue(os.path.isfile(os.path.join(tmp, "slurm.conf")))

    def test_a_json_line_gives_back_the_probed_mutant(self):
        # --recompare rebuilds each mutant from its --json line (a later corpus draws other
        # mutants for the same seed), so the line must hold the files, nodes and KEEP=.
        import json
        base, m, ops = fuzz.make_mutant(11, 7, CORPUS)
        line = json.loads(json.dumps({"base": base, "ops": ops, "files": m.files, "nodes": m.nodes,
                                      "keep": "AccountingStorageTRES"}))
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            m.keep = "AccountingStorageTRES"
            fuzz.write_mutant(m, base, ops, a)
            fuzz.write_recorded_mutant(line, b)
            for rel in list(m.files) + ["case.conf"]:
                with open(os.path.join(a, rel)) as fa, open(os.path.join(b, rel)) as fb:
                    self.assertEqual(fa.read(), fb.read(), rel)


if __name__ == "__main__":
    unittest.main()
