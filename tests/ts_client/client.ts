// The README's QUIXOTE request through a client generated from /openapi.json.
// Usage: node client.js BASE_URL  -> prints the first play's notation, score and breakdown total.
import createClient from "openapi-fetch";
import type { paths } from "./schema.js";

const client = createClient<paths>({ baseUrl: process.argv[2] });

// One path per game: each game's body schema is its own (board size, letters, rack).
const { data, error, response } = await client.POST("/v1/games/crossplay/moves", {
  body: { rack: "QUIXOTE", limit: 2 },
});
if (error !== undefined || data === undefined) {
  console.error(response.status, JSON.stringify(error));
  process.exit(1);
}
const best = data.moves[0];
const words: string[] = best.breakdown?.words.map((w) => `${w.word} ${w.letter_total}x${w.word_multiplier}`) ?? [];
console.log(JSON.stringify({
  notation: best.notation,
  score: best.score,
  total: best.breakdown?.total,
  bonus: best.breakdown?.all_tiles_bonus.name,
  words,
  warnings: data.warnings.length,
}));

// An error answer is typed too: the one error envelope.
const bad = await client.POST("/v1/games/crossplay/moves", {
  body: { rack: "QUIXOTES" },
});
console.log(JSON.stringify({ status: bad.response.status, code: bad.error?.error.code ?? null }));
