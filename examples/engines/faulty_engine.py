#!/usr/bin/env python3
"""An engine that breaks the protocol on purpose, for the host's fault tests
(tests/mcts/play/test_engine_faults.py): `faulty_engine.py FAULT [DECISION]`
plays legally (the first legal decision) until its DECISION-th decision
(default 1), then commits FAULT:

  crash     exits with status 3           hang      never answers
  garbage   writes a line that is no JSON  illegal   answers an illegal id
  unknown   answers a name of no decision  flood     writes an endless line
  close     closes its output, lives on    children  starts a process that outlives it
  mute      never says hello              old       says hello in protocol 0
  exit      exits before its hello        noquit    ignores quit (FAULT at the end)
  escape    starts a process in a session of its own that outlives it
  twice     answers twice: the second decision is written before it is asked
  stale     answers with the number of the decision before ("decision": N - 1)
  lateinfo  writes an info after every answer from its DECISION-th on (no fault: the
            host drops it)
  numbered  answers with "decision": the JSON text of its third argument
  chatter   writes 4 MiB to its standard error, then plays on (no fault: its log
            is cut at the host's limit)
  none      no fault: plays the first legal decision every time

It writes its process number ("engine PID") and those of the processes it starts
("child PID") to its standard error, for the tests to check that none outlives the host.
"""
import json
import os
import subprocess
import sys
import time

FAULT = sys.argv[1] if len(sys.argv) > 1 else "none"
AT = int(sys.argv[2]) if len(sys.argv) > 2 else 1


def send(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def sleeper(new_session=False):
    """A process that sleeps for a minute, named in the engine's log (its pid)."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"],
                             start_new_session=new_session)
    print(f"child {child.pid}", file=sys.stderr, flush=True)


def main():
    print(f"engine {os.getpid()}", file=sys.stderr, flush=True)
    if FAULT == "exit":
        sys.exit(2)
    decisions = 0
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            if FAULT == "mute":
                time.sleep(600)
            send(json.dumps({"type": "hello", "name": f"faulty ({FAULT})",
                             "protocol": 0 if FAULT == "old" else 1}))
        elif kind == "decide":
            decisions += 1
            if decisions == AT:
                if FAULT == "children":
                    sleeper()
                elif FAULT == "escape":
                    sleeper(new_session=True)
                elif FAULT == "chatter":
                    for _ in range(64):
                        sys.stderr.write("y" * 65535 + "\n")
                    sys.stderr.flush()
                elif FAULT == "crash":
                    sys.exit(3)
                elif FAULT == "hang":
                    time.sleep(600)
                elif FAULT == "garbage":
                    send("this is not JSON")
                    continue
                elif FAULT == "illegal":
                    legal = {d["id"] for d in message["legal"]}
                    send(json.dumps({"type": "decision",
                                     "id": next(a for a in range(1000) if a not in legal)}))
                    continue
                elif FAULT == "twice":      # both answers in one write: both wait in the pipe
                    answer = json.dumps({"type": "decision", "id": message["legal"][0]["id"]})
                    send(answer + "\n" + answer)
                    continue
                elif FAULT == "numbered":
                    send(json.dumps({"type": "decision", "id": message["legal"][0]["id"],
                                     "decision": json.loads(sys.argv[3])}))
                    continue
                elif FAULT == "stale":
                    send(json.dumps({"type": "decision", "id": message["legal"][0]["id"],
                                     "decision": message["decision"] - 1}))
                    continue
                elif FAULT == "unknown":
                    send(json.dumps({"type": "decision", "name": "conquer the world"}))
                    continue
                elif FAULT == "flood":
                    chunk = "x" * 65536
                    while True:
                        sys.stdout.write(chunk)
                elif FAULT == "close":
                    sys.stdout.close()
                    os.close(1)
                    time.sleep(600)
            send(json.dumps({"type": "decision", "id": message["legal"][0]["id"],
                             "decision": message["decision"]}))
            if FAULT == "lateinfo" and decisions >= AT:
                send(json.dumps({"type": "info", "after": message["decision"]}))
        elif kind == "quit":
            if FAULT == "noquit":
                time.sleep(600)
            return


if __name__ == "__main__":
    main()
