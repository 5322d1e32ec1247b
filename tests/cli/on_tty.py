# SPDX-License-Identifier: MIT
# on_tty.py <answers file> <command...>: runs the command on a pseudo-terminal (python3's pty
# module), answering each prompt (`(not echoed): ` or `[y/N] `) with the next line of the
# answers file (an empty line when they run out). Prints the session, then `EXIT <status>`.
# The one terminal of the CLI suites' prompt tests (lib.sh's on_tty).
import os
import pty
import re
import select
import sys

answers = open(sys.argv[1], "rb").read().split(b"\n")
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
seen, asked = b"", 0
while True:
    r, _, _ = select.select([fd], [], [], 30)
    if not r:
        sys.stdout.write("TIMEOUT\n")
        os.kill(pid, 9)
        break
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    seen += chunk
    while len(re.findall(rb"(\(not echoed\): |\[y/N\] )", seen)) > asked:
        os.write(fd, (answers[asked] if asked < len(answers) else b"") + b"\n")
        asked += 1
_, status = os.waitpid(pid, 0)
sys.stdout.write(seen.decode("utf-8", "replace"))
sys.stdout.write("\nEXIT %d\n" % os.waitstatus_to_exitcode(status))
