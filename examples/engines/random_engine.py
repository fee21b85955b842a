#!/usr/bin/env python3
"""A complete Ulm engine in plain Python (no import of the ulm project): it
speaks the engine protocol of docs/engines.md on its standard input and output
and plays a simple but legal game: it prefers a decision that scores (money,
a card, a seal) to ending its turn, else picks at random with the seed it is
given. Run it under the host:

    ulm tournament --engine mine="python3 examples/engines/random_engine.py" \\
        --bots engine:mine level:2 --games 4
"""
import json
import random
import sys

PROTOCOL = 1
# words of decisions this engine likes, most liked first (it reads only names)
LIKED = ("seal", "play", "buy", "money", "coat", "push")


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def choose(legal, rng):
    for word in LIKED:
        wanted = [d for d in legal if word in d["name"]]
        if wanted and rng.random() < 0.7:
            return rng.choice(wanted)
    return rng.choice(legal)


def main():
    rng = random.Random(0)
    seat = None
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            send({"type": "hello", "name": "random engine (Python)", "protocol": PROTOCOL})
        elif kind == "game":
            rng = random.Random(message["seed"])
            seat = message["seat"]
        elif kind == "decide":
            pick = choose(message["legal"], rng)
            send({"type": "info", "comment": f"{seat} picks from {len(message['legal'])}"})
            send({"type": "decision", "id": pick["id"], "decision": message["decision"]})
        elif kind == "end":
            print(f"{seat}: game over, scores {message['scores']}", file=sys.stderr)
        elif kind == "quit":
            return


if __name__ == "__main__":
    main()
