#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Deterministic benchmark data for bench/run.sh (no downloads, no randomness from the host:
# one 64-bit LCG seeded by the command line, content sliced from a SHA-256 chain).
#
#   gen.py install <root> small <files> [max_bytes=16384]   workspace of <files> files,
#                                                         0..max_bytes each, depth 3-6
#   gen.py install <root> large <files> <bytes>           <files> files of <bytes> each
#   gen.py blob <path> <bytes>                            one file of <bytes>
#   gen.py config <path> <agents> <providers>             a config.toml of that size
#   gen.py claw <dir>                                     a Claw package at the size limits
import hashlib
import os
import sys

MASK = (1 << 64) - 1


class Lcg:
    def __init__(self, seed):
        self.s = (seed * 6364136223846793005 + 1442695040888963407) & MASK

    def next(self):
        self.s = (self.s * 6364136223846793005 + 1442695040888963407) & MASK
        return self.s >> 33


def pattern(n):
    """n bytes of a SHA-256 chain: the same on every machine, not compressible."""
    out = bytearray()
    h = b"clawport-bench"
    while len(out) < n:
        h = hashlib.sha256(h).digest()
        out += h
    return bytes(out[:n])


BLOCK = pattern(1 << 20)

CONFIG_HEAD = """schema_version = 3

[providers.models.anthropic.main]
api_key = "sk-bench-not-a-real-key"
model = "claude-sonnet-4-5"

[risk_profiles.guarded]

[agents.bench]
model_provider = "anthropic.main"
risk_profile = "guarded"
"""


def small_tree(ws, files, max_bytes):
    rng = Lcg(20000)
    per_dir = 20
    for i in range(files):
        g = i // per_dir
        if i % per_dir == 0:
            depth = 3 + g % 4  # directories between the workspace and the file
            parts = ["p%d" % ((g >> (3 * k)) & 7) for k in range(depth - 1)]
            d = os.path.join(ws, *parts, "g%05d" % g)
            os.makedirs(d, exist_ok=True)
        size = rng.next() % (max_bytes + 1)
        off = rng.next() % (len(BLOCK) - max_bytes)
        with open(os.path.join(d, "f%06d.md" % i), "wb") as f:
            f.write(BLOCK[off:off + size])


def large_tree(ws, files, size):
    os.makedirs(ws, exist_ok=True)
    for i in range(files):
        rot = (i * 4099) % len(BLOCK)
        block = BLOCK[rot:] + BLOCK[:rot]
        with open(os.path.join(ws, "large%02d.bin" % i), "wb") as f:
            left = size
            while left > 0:
                n = min(left, len(block))
                f.write(block[:n])
                left -= n


def install(root, kind, args):
    ws = os.path.join(root, "agents", "bench", "workspace")
    os.makedirs(ws, exist_ok=True)
    with open(os.path.join(root, "config.toml"), "w") as f:
        f.write(CONFIG_HEAD)
    if kind == "small":
        small_tree(ws, int(args[0]), int(args[1]) if len(args) > 1 else 16384)
    else:
        large_tree(ws, int(args[0]), int(args[1]))


def blob(path, size):
    with open(path, "wb") as f:
        left = size
        while left > 0:
            n = min(left, len(BLOCK))
            f.write(BLOCK[:n])
            left -= n


def config(path, agents, providers):
    """`agents` agents, each naming one of `providers` model providers (and a fallback)."""
    out = ["schema_version = 3\n", "[risk_profiles.guarded]\nmax_actions_per_hour = 20\n"]
    families = ["anthropic", "openai", "openrouter", "ollama", "custom"]
    for p in range(providers):
        fam = families[p % len(families)]
        out.append('[providers.models.%s.p%05d]\napi_key = "sk-bench-%05d"\nmodel = "m-%d"\n'
                   'temperature = 0.%d\ntimeout_secs = %d\n'
                   % (fam, p, p, p % 17, p % 10, 30 + p % 90))
        if p + 1 < providers and p % 3 == 0:
            nxt = p + 1
            out.append('fallback = ["%s.p%05d"]\n' % (families[nxt % len(families)], nxt))
    for a in range(agents):
        p = (a * 5) % providers
        out.append('[agents.a%04d]\nmodel_provider = "%s.p%05d"\nrisk_profile = "guarded"\n'
                   % (a, families[p % len(families)], p))
    with open(path, "w") as f:
        f.write("\n".join(out))


def text_of(size, line):
    """Markdown of exactly `size` bytes, made of `line` repeated."""
    reps = size // len(line) + 1
    return (line * reps)[:size - 1] + "\n"


def claw(d):
    """A Claw package whose manifest, profile, bootstrap and workspace sources sit just
    under docs/openclaw.md's limits (1 MiB manifest, 256 KiB profile, 1 MiB per workspace
    source and 4 MiB in all)."""
    os.makedirs(os.path.join(d, "workspace"), exist_ok=True)
    os.makedirs(os.path.join(d, "profiles"), exist_ok=True)
    with open(os.path.join(d, "package.json"), "w") as f:
        f.write('{\n  "name": "@bench/limits-claw",\n  "version": "1.0.0",\n'
                '  "openclaw": {"claw": "CLAW.md"}\n}\n')
    boot = ["AGENTS.md", "IDENTITY.md", "TOOLS.md"]
    front = ["---", "schemaVersion: 1", "agent:", "  id: limits-bench",
             "  name: Limits Bench", "  description: A package at the size limits.",
             "metadata:", "  openclaw.config: profiles/openclaw.yml", "workspace:",
             "  bootstrapFiles:"]
    for b in boot:
        front += ["    %s:" % b, "      source: workspace/%s" % b]
    front += ["  files:"]
    extra = ["notes%02d.md" % i for i in range(1)]
    for e in extra:
        front += ["    - source: workspace/%s" % e, "      path: reference/%s" % e]
    front += ["---", ""]
    head = "\n".join(front) + "\n"
    limit = 1024 * 1024
    with open(os.path.join(d, "CLAW.md"), "w") as f:
        f.write(head + text_of(limit - len(head) - 4096, "The agent reads this body. " * 3 + "\n"))
    # Four sources: with the manifest body (which counts with them) just under 4 MiB.
    each = (3 * 1024 * 1024 - 300 * 1024) // (len(boot) + len(extra))
    for name in boot + extra:
        with open(os.path.join(d, "workspace", name), "w") as f:
            f.write(text_of(each, "- a bootstrap line of ordinary markdown text\n"))
    # A valid profile (docs/openclaw.md, the strict schema) made large by its tool grants.
    body = "schemaVersion: 1\nagent:\n  tools:\n    profile: coding\n    allow:\n"
    i = 0
    while len(body) < 256 * 1024 - 4096:
        body += "      - statuspage__tool_%05d\n" % i
        i += 1
    with open(os.path.join(d, "profiles", "openclaw.yml"), "w") as f:
        f.write(body)


def main(argv):
    cmd = argv[1]
    if cmd == "install":
        install(argv[2], argv[3], argv[4:])
    elif cmd == "blob":
        blob(argv[2], int(argv[3]))
    elif cmd == "config":
        config(argv[2], int(argv[3]), int(argv[4]))
    elif cmd == "claw":
        claw(argv[2])
    else:
        sys.exit("gen.py: unknown command " + cmd)


if __name__ == "__main__":
    main(sys.argv)
