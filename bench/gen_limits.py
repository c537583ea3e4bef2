#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Write a `sacctmgr dump` file with N associations, as a large lab or university has them:
one account per group (QOS list, GrpTRES on GPUs and CPUs), about 19 users under each (own
GPU caps on every third, typed limits on every fifth), in the format sacctmgr dump writes
(typed TRES unquoted). For the limits reader's benchmark (BM_ReadLimits, docs/performance.md).

    bench/gen_limits.py --associations 10000 --seed 1 > bench-data/limits-10000.cfg
"""
import argparse
import random
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--associations", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--users-per-account", type=int, default=19)
    opts = ap.parse_args()
    rnd = random.Random(opts.seed)
    out = sys.stdout
    out.write("# To edit this file start with a cluster line for the new cluster\n")
    out.write("# Cluster - 'cluster_name':MaxTRESPerJob=node=50\n")
    out.write("Cluster - 'bench':Fairshare=1:QOS='normal,gpu,long,interactive'\n")
    out.write("Parent - 'root'\n")
    out.write("User - 'root':DefaultAccount='root':AdminLevel='Administrator':Fairshare=1\n")
    made = 2
    group = 0
    while made < opts.associations:
        group += 1
        acct = "grp%05d" % group
        out.write("Parent - 'root'\n")
        out.write("Account - '%s':Description='group %d':Organization='dept%d':Fairshare=%d:"
                  "GrpTRES=cpu=%d,gres/gpu=%d,gres/gpu:a100=%d:MaxTRESPerJob=gres/gpu=%d:"
                  "QOS='normal,gpu,interactive':DefaultQOS='gpu'\n"
                  % (acct, group, group % 40, rnd.randint(1, 100), rnd.choice([256, 512, 1024]),
                     rnd.choice([8, 16, 32]), rnd.choice([4, 8]), rnd.choice([4, 8])))
        made += 1
        out.write("Parent - '%s'\n" % acct)
        for u in range(opts.users_per_account):
            if made >= opts.associations:
                break
            user = "u%05d%02d" % (group, u)
            line = "User - '%s':DefaultAccount='%s':Fairshare=1" % (user, acct)
            if u % 3 == 0:
                line += ":MaxTRESPerJob=gres/gpu=%d:MaxTRESPerNode=gres/gpu=%d" % (rnd.choice([1, 2, 4]), 4)
            if u % 5 == 0:
                line += ":GrpTRESMins=gres/gpu:a100=%d" % rnd.choice([6000, 60000])
            out.write(line + "\n")
            made += 1


if __name__ == "__main__":
    main()
