#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Cross-checks clawport's OpenClaw YAML reader against PyYAML (Debian python3-yaml).

Generates a deterministic corpus of YAML documents (random JSON data written in random
block/flow/quoted/plain/literal/folded styles, plus mutated copies), reads every document
with both the `yaml_to_json` test program and PyYAML configured with the YAML 1.2 Core
schema resolvers, and fails when a document both accept gives different JSON data.

usage: yaml_crosscheck.py <path-to-yaml_to_json> [count] [seed]
"""
import json
import math
import random
import re
import subprocess
import sys

try:
    import yaml
except ImportError:  # python3-yaml is installed by tools/install-deps.sh; skip without it
    print("PyYAML is not installed (apt install python3-yaml); skipping the cross-check")
    sys.exit(77)


class CoreLoader(yaml.SafeLoader):
    """PyYAML's parser with YAML 1.2 Core schema resolution (no yes/no/on/off, no
    timestamps, no merge keys, no sexagesimal or underscored numbers)."""


CoreLoader.yaml_implicit_resolvers = {}


def _resolver(tag, regexp, first):
    CoreLoader.add_implicit_resolver(tag, re.compile(regexp), list(first))


_resolver("tag:yaml.org,2002:null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""])
_resolver("tag:yaml.org,2002:bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF")
_resolver("tag:yaml.org,2002:int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789")
_resolver(
    "tag:yaml.org,2002:float",
    r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
    "-+.0123456789",
)


def _int(loader, node):
    v = loader.construct_scalar(node)
    if v.startswith("0o"):
        return int(v[2:], 8)
    if v.startswith("0x"):
        return int(v[2:], 16)
    return int(v)


def _float(loader, node):
    v = loader.construct_scalar(node)
    low = v.lower().lstrip("+")
    if low in (".inf",):
        return math.inf
    if low == "-.inf":
        return -math.inf
    if low == ".nan":
        return math.nan
    return float(v)


def _bool(loader, node):
    return loader.construct_scalar(node).lower() == "true"


CoreLoader.add_constructor("tag:yaml.org,2002:int", _int)
CoreLoader.add_constructor("tag:yaml.org,2002:float", _float)
CoreLoader.add_constructor("tag:yaml.org,2002:bool", _bool)

WORDS = ["a", "b", "key", "name", "id", "x y", "yes", "no", "on", "off", "null", "~", "Null",
         "true", "False", "1", "-2", "+3", "007", "0o17", "0x1F", "1.5", "-0.25", "1e3",
         ".5", "2.", "1_000", "12:30", "2024-01-01", "é", "🚨 emoji", "a: b", "a #b", "#c",
         "- x", "[x]", "{y}", "it's", 'say "hi"', "back\\slash", "tab\there", "", " lead",
         "trail ", "multi\nline", "two\n\nbreaks", "end\n", "*star", "&amp", "!bang", "%pct",
         "@at", "`tick", "? q", "a,b", "http://x.y/z?q=1#f", "${VAR}", "<<", "=", "-", ":"]


def gen_scalar(rng):
    r = rng.random()
    if r < 0.55:
        return rng.choice(WORDS)
    if r < 0.7:
        return rng.randint(-1000, 1000)
    if r < 0.8:
        return round(rng.uniform(-100, 100), rng.randint(0, 4))
    if r < 0.9:
        return rng.choice([True, False])
    return None


def gen_value(rng, depth):
    if depth > 3 or rng.random() < 0.35:
        return gen_scalar(rng)
    if rng.random() < 0.5:
        return [gen_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    keys = [str(rng.choice(WORDS[:12] + ["k%d" % i for i in range(6)])) for _ in range(rng.randint(0, 4))]
    return {k: gen_value(rng, depth + 1) for k in keys}


def q_double(s):
    out = '"'
    for ch in s:
        if ch == '"':
            out += '\\"'
        elif ch == "\\":
            out += "\\\\"
        elif ch == "\n":
            out += "\\n"
        elif ch == "\t":
            out += "\\t"
        elif ord(ch) > 0x7F and random.random() < 0.3:
            out += "\\u%04x" % ord(ch) if ord(ch) < 0x10000 else "\\U%08x" % ord(ch)
        else:
            out += ch
    return out + '"'


def q_single(s):
    return "'" + s.replace("'", "''") + "'"


def emit_scalar(rng, v, indent, flow):
    if v is None:
        return rng.choice(["null", "~", "", "Null"]) if not flow else rng.choice(["null", "~"])
    if v is True or v is False:
        return rng.choice(["true", "True", "TRUE"]) if v else rng.choice(["false", "False"])
    if isinstance(v, (int, float)):
        return repr(v)
    style = rng.random()
    if style < 0.35:
        return v  # plain, whatever it means
    if style < 0.6:
        return q_double(v)
    if style < 0.8 or flow or "\n" not in v and rng.random() < 0.5:
        return q_single(v)
    ind = " " * (indent + 2)
    head = rng.choice(["|", "|-", "|+", ">", ">-", ">+"])
    body = "\n".join((ind + line) if line else "" for line in v.split("\n"))
    return head + "\n" + body


def emit_flow(rng, v):
    if isinstance(v, list):
        return "[" + ", ".join(emit_flow(rng, e) for e in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(emit_key(rng, k) + ": " + emit_flow(rng, e) for k, e in v.items()) + "}"
    return emit_scalar(rng, v, 0, True)


def emit_key(rng, k):
    r = rng.random()
    if r < 0.6:
        return k
    if r < 0.8:
        return q_double(k)
    return q_single(k)


def emit_block(rng, v, indent):
    """Lines for a block node at `indent`; the caller has placed the indicator."""
    pad = " " * indent
    if isinstance(v, dict) and v and rng.random() < 0.85:
        lines = []
        for k, e in v.items():
            lines.extend(emit_entry(rng, pad + emit_key(rng, k) + ":", e, indent, True))
        return lines
    if isinstance(v, list) and v and rng.random() < 0.85:
        lines = []
        for e in v:
            lines.extend(emit_entry(rng, pad + "-", e, indent, False))
        return lines
    if isinstance(v, (dict, list)):
        return [pad + emit_flow(rng, v)]
    return [pad + emit_scalar(rng, v, indent, False)]


def emit_entry(rng, head, e, indent, in_map):
    if isinstance(e, (dict, list)) and e and rng.random() < 0.85:
        step = rng.choice([2, 2, 4]) if in_map else 2
        if not in_map and rng.random() < 0.5:
            # compact form: "- key: v" / "- - v"
            sub = emit_block(rng, e, indent + 2)
            first = sub[0][indent + 2:]
            return [head + " " + first] + sub[1:]
        if in_map and isinstance(e, list) and rng.random() < 0.3:
            return [head] + emit_block(rng, e, indent)
        comment = rng.choice(["", "", " # note"])
        return [head + comment] + emit_block(rng, e, indent + step)
    text = emit_flow(rng, e) if isinstance(e, (dict, list)) else emit_scalar(rng, e, indent, False)
    if "\n" in text:
        return [head + " " + text]
    sep = " " if text != "" or rng.random() < 0.5 else ""
    return [head + sep + text + rng.choice(["", "", " # c"])]


def gen_doc(rng):
    v = gen_value(rng, 0)
    if not isinstance(v, (dict, list)) and rng.random() < 0.7:
        v = {"root": v}
    lines = emit_block(rng, v, 0)
    text = "\n".join(lines) + "\n"
    if rng.random() < 0.1:
        text = "---\n" + text
    if rng.random() < 0.1:
        text = "# leading comment\n\n" + text
    return text


def mutate(rng, text):
    chars = list(text)
    for _ in range(rng.randint(1, 3)):
        op = rng.random()
        pos = rng.randrange(len(chars) + 1)
        if op < 0.4 and chars:
            del chars[min(pos, len(chars) - 1)]
        else:
            chars.insert(pos, rng.choice(" \n:-#\"'[]{},|>&*!?"))
    return "".join(chars)


# Where PyYAML (a YAML 1.1 parser) reads a document differently from YAML 1.2, which
# OpenClaw's reader and clawport follow: in flow context PyYAML takes `?` as the explicit
# key indicator even when a non-space follows (1.2: the plain scalar `?k`).
KNOWN_DIVERGENCES = [re.compile(r"[\[{,]\s*\?\S")]


def py_json(text):
    if any(p.search(text) for p in KNOWN_DIVERGENCES):
        return None
    try:
        docs = list(yaml.load_all(text, Loader=CoreLoader))
    except Exception:
        return None
    if len(docs) > 1:
        return None
    data = docs[0] if docs else None

    def ok(x):
        if isinstance(x, dict):
            return all(isinstance(k, str) and k != "<<" for k in x) and all(ok(e) for e in x.values())
        if isinstance(x, list):
            return all(ok(e) for e in x)
        if isinstance(x, float):
            return math.isfinite(x)
        return x is None or isinstance(x, (str, bool, int))

    return data if ok(data) else None


def same(a, b):
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if a is None or b is None:
        return a is b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return False


def main():
    exe = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 20260721
    rng = random.Random(seed)
    random.seed(seed)
    docs = []
    kinds = []
    for n in range(count):
        d = gen_doc(rng)
        if n % 3 == 2:
            d = mutate(rng, d)
            kinds.append("mutated")
        else:
            kinds.append("generated")
        docs.append(d)
    payload = "\n\x1e\n".join(d.rstrip("\n") for d in docs) + "\n"
    # Each document is sent without its final newline and gets exactly one back.
    docs = [d.rstrip("\n") + "\n" for d in docs]
    out = subprocess.run([exe], input=payload.encode("utf-8"), stdout=subprocess.PIPE, check=True)
    results = out.stdout.decode("utf-8").split("\n")
    results = [r for r in results if r]
    if len(results) != len(docs):
        sys.exit("yaml_to_json printed %d results for %d documents" % (len(results), len(docs)))
    both = mismatch = ours_only = theirs_only = 0
    gen_both = gen_total = 0
    for doc, kind, res in zip(docs, kinds, results):
        theirs = py_json(doc)
        ours = json.loads(res[3:]) if res.startswith("OK ") else None
        accepted_ours = res.startswith("OK ")
        if kind == "generated":
            gen_total += 1
        if accepted_ours and theirs is not None or (accepted_ours and ours is None and theirs is None and py_accepts_null(doc)):
            both += 1
            if kind == "generated":
                gen_both += 1
            if not same(ours, theirs):
                mismatch += 1
                if mismatch <= 10:
                    print("MISMATCH\n--- document ---\n%s--- clawport ---\n%s\n--- PyYAML ---\n%s\n"
                          % (doc, json.dumps(ours, ensure_ascii=False), json.dumps(theirs, ensure_ascii=False)))
        elif accepted_ours:
            ours_only += 1
        elif theirs is not None:
            theirs_only += 1
    print("documents=%d both-accept=%d mismatches=%d clawport-only=%d pyyaml-only=%d "
          "(generated: %d of %d both-accept)" % (len(docs), both, mismatch, ours_only, theirs_only,
                                                  gen_both, gen_total))
    if mismatch:
        sys.exit(1)
    if gen_both < gen_total // 2:
        sys.exit("too few generated documents were accepted by both readers; the corpus is broken")


def py_accepts_null(doc):
    try:
        docs = list(yaml.load_all(doc, Loader=CoreLoader))
    except Exception:
        return False
    return len(docs) <= 1 and (not docs or docs[0] is None)


if __name__ == "__main__":
    main()
