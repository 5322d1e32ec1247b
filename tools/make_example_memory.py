#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Makes a ZeroClaw memory store (`brain.db`) with the runtime's V3 schema, for the example
install and for the tests of `--with-memory` (docs/format.md, "Format 2").

  tools/make_example_memory.py                  the example install's store (deterministic)
  tools/make_example_memory.py create DB        an empty store: schema, `default` agent
  tools/make_example_memory.py add DB --agent A --count N [--prefix P] [--category C]
                                                [--content TEXT]
                                                N rows for agent A (its `agents` row made
                                                if missing), one transaction
  tools/make_example_memory.py meta DB KEY VALUE   a `memory_meta` row

The schema is ZeroClaw's after `init_schema`, `migrate_sqlite_memory_to_v3` and `init_schema`
again (ZeroClaw's `crates/zeroclaw-memory/src/sqlite.rs`; docs/format.md, format 2), read from
include/clawport/sqlite/schema.hpp, the one text of it (`import --with-memory` creates it too):
the rebuilt `memories` with `agent_id` and UNIQUE(agent_id, key), then `kind`, `pinned` and
`tenant_id` re-added; every connection sets the runtime's pragmas, so the store is WAL.
"""
import argparse
import os
import re
import sqlite3
import sys
import uuid

HEADER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "include", "clawport",
                      "sqlite", "schema.hpp")


def header_text(name):
    """The string constant `name` of include/clawport/sqlite/schema.hpp: the one text of the
    runtime's schema, which `import --with-memory` creates too."""
    with open(HEADER, encoding="utf-8") as f:
        text = f.read()
    if name == "schema_sql":
        return text.split('schema_sql = R"sql(', 1)[1].split(')sql"', 1)[0]
    body = text.split(f"{name} =", 1)[1].split(";\n\n", 1)[0]
    return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', body))


PRAGMAS = header_text("runtime_pragmas")
SCHEMA = header_text("schema_sql")

EPOCH = "2026-01-05T09:00:00+00:00"
DEFAULT_AGENT = "00000000-0000-4000-8000-000000000000"


def connect(path):
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript(PRAGMAS)
    return db


def create(path, default_id=DEFAULT_AGENT, at=EPOCH):
    if os.path.exists(path):
        sys.exit(f"{path} exists; remove it first")
    db = connect(path)
    db.executescript("BEGIN;" + SCHEMA + "COMMIT;")
    db.execute("INSERT INTO schema_version VALUES ('memories', 1, ?)", (at,))
    db.execute("INSERT INTO agents VALUES (?, 'default', ?)", (default_id, at))
    return db


def agent_id(db, alias, new_id=None, at=EPOCH):
    row = db.execute("SELECT id FROM agents WHERE alias = ?", (alias,)).fetchone()
    if row:
        return row[0]
    new_id = new_id or str(uuid.uuid4())
    db.execute("INSERT INTO agents VALUES (?, ?, ?)", (new_id, alias, at))
    return new_id


def insert(db, aid, key, content, category="core", at=EPOCH, **extra):
    """One row as the runtime stores it; `extra` sets kind, pinned, importance, namespace,
    session_id, tenant_id, embedding, superseded_by, updated_at."""
    row = {"id": extra.pop("id", None) or str(uuid.uuid4()), "key": key, "content": content,
           "category": category, "created_at": at, "updated_at": extra.pop("updated_at", at),
           "agent_id": aid}
    row.update(extra)
    cols = ", ".join(row)
    db.execute(f"INSERT INTO memories ({cols}) VALUES ({', '.join('?' * len(row))})",
               tuple(row.values()))


def example(path):
    """The example install's store: a few memories for `researcher`, some for `assistant`,
    one for `default`; fixed ids and times, so the file is the same on every run."""
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)
    db = create(path)
    res = agent_id(db, "researcher", "6f1c2a9e-3b4d-4e5f-8a6b-7c8d9e0f1a2b")
    ast = agent_id(db, "assistant", "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d")
    ids = iter(f"00000000-0000-4000-8000-{n:012d}" for n in range(1, 100))
    db.execute("BEGIN IMMEDIATE")
    insert(db, res, "citation_style", "Cite sources as (Author, Year) with a link.",
           id=next(ids), pinned=1, importance=0.9)
    insert(db, res, "preferred_sources", "Prefer peer-reviewed papers and official docs.",
           id=next(ids), at="2026-01-06T10:15:00+00:00", kind='"Preference"')
    insert(db, res, "openclaw_2026-01-07_1", "Summarised three papers on retrieval.",
           "daily", id=next(ids), at="2026-01-07T18:30:00+00:00")
    insert(db, res, "session_note", "Asked to keep answers short.", "conversation",
           id=next(ids), at="2026-01-08T08:00:00+00:00", session_id="discord_home_42")
    insert(db, res, "lab_token", "token for the lab wiki", "api_key", id=next(ids),
           at="2026-01-08T09:00:00+00:00")
    insert(db, ast, "home_timezone", "The operator lives in Europe/Berlin.", id=next(ids))
    insert(db, ast, "grocery_list", "Milk, eggs, coffee.", "daily", id=next(ids),
           at="2026-01-09T07:45:00+00:00")
    insert(db, DEFAULT_AGENT, "install_note", "Installed on the lab machine.", id=next(ids))
    db.execute("INSERT INTO memory_meta VALUES ('embedding_provider', 'none')")
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    if len(sys.argv) == 1:
        example(os.path.join(here, "..", "examples", "zeroclaw-install", "data", "memory",
                             "brain.db"))
        return
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("create")
    c.add_argument("db")
    a = sub.add_parser("add")
    a.add_argument("db")
    a.add_argument("--agent", required=True)
    a.add_argument("--count", type=int, default=1)
    a.add_argument("--prefix", default="note")
    a.add_argument("--category", default="core")
    a.add_argument("--content", default="{prefix} number {i}",
                   help="the rows' content; {prefix} and {i} are replaced")
    m = sub.add_parser("meta")
    m.add_argument("db")
    m.add_argument("key")
    m.add_argument("value")
    args = ap.parse_args()
    if args.cmd == "create":
        create(args.db).close()
        return
    db = connect(args.db)
    db.execute("BEGIN IMMEDIATE")
    if args.cmd == "meta":
        db.execute("INSERT OR REPLACE INTO memory_meta VALUES (?, ?)", (args.key, args.value))
    else:
        aid = agent_id(db, args.agent)
        for i in range(args.count):
            content = args.content.replace("{prefix}", args.prefix).replace("{i}", str(i))
            insert(db, aid, f"{args.prefix}_{i}", content, args.category,
                   embedding=b"\0\0\x80?", session_id=f"session_{args.prefix}")
    db.execute("COMMIT")
    db.close()


if __name__ == "__main__":
    main()
