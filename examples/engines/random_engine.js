#!/usr/bin/env node
// A complete Ulm engine in Node (docs/engines.md): it answers the host's hello and,
// for each decision, prefers "end turn" last and otherwise picks a legal decision at
// random with the seed the game message gives (a small xorshift generator).
//
//     ulm tournament --engine js="node examples/engines/random_engine.js" \
//         --bots engine:js level:2 --games 4
"use strict";
const readline = require("readline");

let state = 88172645463325252n;
const MASK = (1n << 64n) - 1n;
function nextRandom() {
  state ^= (state << 13n) & MASK;
  state ^= state >> 7n;
  state ^= (state << 17n) & MASK;
  return state;
}
function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  // the seed is a 64-bit number: read it from the text, not through a JavaScript number
  const message = JSON.parse(line);
  if (message.type === "hello") {
    send({ type: "hello", name: "random engine (Node)", protocol: 1 });
  } else if (message.type === "game") {
    const seed = /"seed":(\d+)/.exec(line);
    state = (seed ? BigInt(seed[1]) : 1n) | 1n;
  } else if (message.type === "decide") {
    const others = message.legal.filter((d) => d.name !== "end turn");
    const pool = others.length ? others : message.legal;
    const pick = pool[Number(nextRandom() % BigInt(pool.length))];
    send({ type: "decision", id: pick.id });
  } else if (message.type === "quit") {
    lines.close();
    process.exit(0);
  }
});
