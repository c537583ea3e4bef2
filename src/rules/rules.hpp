// SPDX-License-Identifier: Apache-2.0
// Every rule greslint has: its RuleInfo and, for model rules, its check function.
// One line per rule, sorted by id; the registry (registry.cpp) lists the same ids.
#pragma once

#include "greslint/diagnostic.hpp"

namespace greslint {
class Model;
class Reporter;
}  // namespace greslint

namespace greslint::rules {

using CheckFn = void (*)(const Model&, Reporter&);

// GRS0xx: lexical, Include and hostlist problems (reported by the reader).
extern const RuleInfo GRS001;  // parse-error
extern const RuleInfo GRS002;  // unknown-key
extern const RuleInfo GRS003;  // invalid-value
extern const RuleInfo GRS004;  // duplicate-key
extern const RuleInfo GRS005;  // include-failed
extern const RuleInfo GRS006;  // empty-value-takes-next-token
extern const RuleInfo GRS007;  // continuation-joins-tokens
extern const RuleInfo GRS008;  // unreadable-input
extern const RuleInfo GRS009;  // unknown-suppression
extern const RuleInfo GRS010;  // unused-suppression

// GRS1xx slurm.conf, GRS2xx gres.conf, GRS3xx cross-file (reported by the model).
extern const RuleInfo GRS101;  // node-topology-reset
extern const RuleInfo GRS102;  // duplicate-node-name
extern const RuleInfo GRS103;  // reserved-node-name
extern const RuleInfo GRS104;  // address-on-default-node
extern const RuleInfo GRS105;  // invalid-node-hostlist
extern const RuleInfo GRS106;  // node-address-count-mismatch
extern const RuleInfo GRS108;  // partition-unknown-node
extern const RuleInfo GRS110;  // gres-not-in-grestypes
extern const RuleInfo GRS111;  // shared-gres-without-gpu
extern const RuleInfo GRS112;  // duplicate-grestypes-entry
extern const RuleInfo GRS114;  // shared-gres-without-cons-tres
extern const RuleInfo GRS115;  // bad-gres-count
extern const RuleInfo GRS116;  // mixed-typed-untyped-gres
extern const RuleInfo GRS201;  // gres-conf-name-not-in-grestypes
extern const RuleInfo GRS202;  // gres-conf-line-without-name
extern const RuleInfo GRS203;  // inline-autodetect-on-name-line
extern const RuleInfo GRS204;  // unknown-autodetect
extern const RuleInfo GRS205;  // no-gpu-env-with-other-env
extern const RuleInfo GRS206;  // flags-mismatch
extern const RuleInfo GRS207;  // conflicting-node-autodetect
extern const RuleInfo GRS208;  // cores-out-of-range
extern const RuleInfo GRS209;  // file-and-multiplefiles
extern const RuleInfo GRS210;  // multiplefiles-single-file
extern const RuleInfo GRS211;  // invalid-count
extern const RuleInfo GRS212;  // count-differs-from-files
extern const RuleInfo GRS214;  // invalid-links
extern const RuleInfo GRS215;  // invalid-file-hostlist
extern const RuleInfo GRS216;  // invalid-gres-nodename
extern const RuleInfo GRS217;  // mixed-file-records
extern const RuleInfo GRS218;  // mixed-type-records
extern const RuleInfo GRS219;  // duplicate-untyped-records
extern const RuleInfo GRS220;  // duplicate-device-file
extern const RuleInfo GRS222;  // autodetect-unverifiable
extern const RuleInfo GRS301;  // count-lower-than-configured
extern const RuleInfo GRS302;  // gres-conf-excess-ignored
extern const RuleInfo GRS303;  // invalid-cores-invalidates-node
extern const RuleInfo GRS304;  // per-type-count-too-low
extern const RuleInfo GRS305;  // type-not-configured
extern const RuleInfo GRS306;  // name-case-mismatch
extern const RuleInfo GRS310;  // gres-conf-unknown-node
extern const RuleInfo GRS311;  // cores-split-socket
extern const RuleInfo GRS314;  // shared-gres-without-gpu-files

extern const RuleInfo GRS107;  // invalid-node-state
extern const RuleInfo GRS113;  // grestypes-hash-collision
extern const RuleInfo GRS223;  // autodetect-on-cloud-node
extern const RuleInfo GRS312;  // links-longer-than-gpus
extern const RuleInfo GRS313;  // shared-file-unmatched
extern const RuleInfo GRS315;  // cores-on-some-records
extern const RuleInfo GRS221;  // global-device-line
extern const RuleInfo GRS401;  // gpu-not-accounted
extern const RuleInfo GRS402;  // typed-gpu-tres-only
extern const RuleInfo GRS403;  // gpu-limits-not-enforced
extern const RuleInfo GRS404;  // tres-needs-slurmdbd
extern const RuleInfo GRS405;  // gpus-without-cons-tres
extern const RuleInfo GRS406;  // gpus-not-isolated
extern const RuleInfo GRS407;  // gpu-partition-without-gpus
extern const RuleInfo GRS408;  // gpu-node-in-no-partition
extern const RuleInfo GRS410;  // autodetect-needs-library
// GRS5xx: the configuration against the node's hardware (greslint node-check).
extern const RuleInfo GRS501;  // device-file-missing
extern const RuleInfo GRS502;  // gpu-not-configured
extern const RuleInfo GRS503;  // gpu-count-drains-node
extern const RuleInfo GRS504;  // cores-not-gpu-local
extern const RuleInfo GRS505;  // cpu-ids-as-core-ids
extern const RuleInfo GRS506;  // node-topology-differs
extern const RuleInfo GRS507;  // type-not-in-model-name
extern const RuleInfo GRS508;  // autodetect-affinity-splits-socket
}  // namespace greslint::rules
