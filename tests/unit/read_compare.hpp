// SPDX-License-Identifier: Apache-2.0
// What the reader tests hold of a read, and how they compare two: pairs and spans field by
// field (a read on two threads, or of a mapped file, against the same text read in one piece).
#pragma once

#include "greslint/config.hpp"
#include "greslint/report.hpp"
#include "greslint/source.hpp"

namespace greslint::test {

struct Read {
  SourceManager sources;
  Reporter out;
  ConfigFile file;
};

inline bool same_span(Span a, Span b) { return a.file == b.file && a.begin == b.begin && a.end == b.end; }

inline bool same_pair(const KeyValue& a, const KeyValue& b) {
  return a.key == b.key && a.value == b.value && a.spec == b.spec && same_span(a.key_span, b.key_span) &&
         same_span(a.value_span, b.value_span) && a.op == b.op && a.quoted == b.quoted;
}

}  // namespace greslint::test
