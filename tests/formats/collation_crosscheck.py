#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Cross-checks clawport's localeCompare approximation against a real one: Node's
String.prototype.localeCompare (ICU root collation) on a generated corpus of string pairs.

usage: collation_crosscheck.py <clawport_locale_compare> [pairs]
       collation_crosscheck.py --tables    (prints the two measured tables of
                                           formats/unicode.hpp from this Node's ICU)
Exit 77 (skipped) when no `node` is on PATH. Fails when any pair of strings the grammar
allows in plan ids (ASCII letters, digits, `_-.:@/`) orders differently, or when fewer than
the agreement floor of all pairs agree; prints the measured agreement per alphabet.
"""
import random
import shutil
import subprocess
import sys

NODE = shutil.which("node") or shutil.which("nodejs")

ALPHABETS = {
    # What capability and action keys are made of: kind names, ids, refs, paths.
    "grammar": "abcdefghijklmnopqrstuvwxyzS0123456789_-.:@/",
    "ascii": "".join(chr(c) for c in range(0x20, 0x7F)) + "\t",
    # Latin letters with diacritics (precomposed and combining), the special Latin letters,
    # case pairs, Greek, Cyrillic, non-ASCII digits, spaces, punctuation and symbols.
    "unicode": "aAbeEoOsSzZ019 -_.áÁàâäÄãåçÇéÉèêëíïñÑóôöÖøØœŒßẞæÆðÐþÞłŁđħıŋŧəɛĸ"
    "\u0301\u0300\u0308\u0327ǎȧạāą"
    "αάβΩωσςбжЖё1١②²³\u00a0\u2003—–…·«»’“€£¥§©°±×\u200b\u0001",
    # Beyond the approximation (reported, not enforced): Latin Extended-B letters without a
    # decomposition, and compatibility characters ICU expands (ﬁ, ǆ, ½, fullwidth forms).
    "latin-ext": "".join(chr(c) for c in range(0x180, 0x250)) + "abz",
    "compat": "ﬁﬂĳǆǅǄ½¼ªº™℃ａｂ１a b",
}
# Agreement floors (fraction of pairs whose sign matches ICU's).
FLOORS = {"grammar": 1.0, "ascii": 1.0, "unicode": 0.99, "latin-ext": 0.0, "compat": 0.0}

NODE_SCRIPT = r"""
const lines = require('fs').readFileSync(0, 'utf8').split('\n');
if (lines[lines.length - 1] === '') lines.pop();
const out = lines.map((l) => { const [a, b] = l.split('\x1f'); return Math.sign(a.localeCompare(b)); });
process.stdout.write(out.join('\n') + '\n');
"""


MEASURE_SCRIPT = r"""
// Prints the two measured tables of formats/unicode.hpp from this Node's ICU.
const hex = (c) => '0x' + c.toString(16).toUpperCase();
const base = { sensitivity: 'base' };
// 1. Spaces, punctuation, symbols and currency of ASCII, Latin-1, General Punctuation and
//    Currency Symbols: ICU's primary order, equal weights for primary-equal characters.
const cps = [];
for (let c = 0x09; c <= 0x0d; c++) cps.push(c);
for (let c = 0x20; c < 0x7f; c++) if (!/[A-Za-z0-9]/.test(String.fromCharCode(c))) cps.push(c);
cps.push(0x85);
for (let c = 0xa0; c <= 0xbf; c++) cps.push(c);
cps.push(0xd7, 0xf7);
for (let c = 0x2000; c <= 0x206f; c++) cps.push(c);
for (let c = 0x20a0; c <= 0x20c0; c++) cps.push(c);
const items = cps.map((c) => ({ c, s: String.fromCodePoint(c) }))
  .filter((x) => x.s.localeCompare('', undefined, base) !== 0 && x.s.localeCompare('0') < 0);
const cmp = (a, b) => a.s.localeCompare(b.s, undefined, base);
items.sort((a, b) => cmp(a, b) || a.c - b.c);
let w = 0;
const weights = items.map((it, i) => { if (i > 0 && cmp(items[i - 1], it) !== 0) w++; return [it.c, w + 1]; });
weights.sort((a, b) => a[0] - b[0]);
console.log('punctuation_weights: ' + weights.map(([c, x]) => `{${hex(c)}, ${x}}`).join(', '));
// 2. Secondary order of the combining diacritics U+0300..U+036F on "a" (0: no difference).
const marks = [];
for (let c = 0x300; c < 0x370; c++) marks.push({ c, s: 'a' + String.fromCodePoint(c) });
const sorted = [...marks].sort((a, b) => a.s.localeCompare(b.s) || a.c - b.c);
const dw = new Map();
let v = 0;
sorted.forEach((m, i) => {
  if (m.s.localeCompare('a') === 0) { dw.set(m.c, 0); return; }
  if (i === 0 || sorted[i - 1].s.localeCompare(m.s) !== 0) v++;
  dw.set(m.c, v);
});
console.log('diacritic_weights: ' + marks.map((m) => dw.get(m.c)).join(', '));
"""


def corpus(alphabet, n, rng):
    pairs = []
    for _ in range(n):
        a = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 5)))
        # Half the pairs share a prefix, so later levels and positions get exercised.
        if rng.random() < 0.5:
            b = a[: rng.randint(0, len(a))] + "".join(
                rng.choice(alphabet) for _ in range(rng.randint(0, 3)))
        else:
            b = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 5)))
        pairs.append((a, b))
    return pairs


def signs(cmd, text):
    out = subprocess.run(cmd, input=text.encode("utf-8"), capture_output=True, check=True)
    return [int(x) for x in out.stdout.decode().split()]


def main():
    if NODE is None:
        print("no node on PATH: skipped")
        return 77
    if sys.argv[1] == "--tables":
        subprocess.run([NODE, "-e", MEASURE_SCRIPT], check=True)
        print("ICU " + subprocess.run([NODE, "-p", "process.versions.icu"], capture_output=True,
                                      text=True, check=True).stdout.strip())
        return 0
    tool = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
    rng = random.Random(20261201)
    failed = False
    for name, alphabet in ALPHABETS.items():
        pairs = corpus(alphabet, n, rng)
        text = "".join(a + "\x1f" + b + "\n" for a, b in pairs)
        icu = signs([NODE, "-e", NODE_SCRIPT], text)
        ours = signs([tool], text)
        assert len(icu) == len(ours) == len(pairs)
        bad = [(p, i, o) for p, i, o in zip(pairs, icu, ours) if i != o]
        agreement = 1 - len(bad) / len(pairs)
        print("%-8s %5d pairs, agreement %.4f" % (name, len(pairs), agreement))
        for (a, b), i, o in bad[:8]:
            print("   %r vs %r: ICU %d, clawport %d" % (a, b, i, o))
        if agreement < FLOORS[name]:
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
