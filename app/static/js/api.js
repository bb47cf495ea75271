// The page's only way to the server: the public /v1 API, as any third-party front end calls it.

export class ApiError extends Error {
  constructor(status, error) {
    super(error.message);
    this.status = status;
    this.code = error.code;
    this.details = error.details || {};
  }
}

export async function call(method, path, body) {
  const init = { method, headers: { Accept: 'application/json' } };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, { code: 'network', message: `cannot reach the service (${e.message})` });
  }
  let data = null;
  try { data = await res.json(); } catch { /* not JSON */ }
  if (!res.ok) {
    const err = data && data.error ? data.error : { code: `http_${res.status}`, message: `the service answered ${res.status}` };
    throw new ApiError(res.status, err);
  }
  return data;
}

export const api = {
  games: () => call('GET', '/v1/games'),
  game: (name) => call('GET', `/v1/games/${encodeURIComponent(name)}`),
  lexicons: () => call('GET', '/v1/lexicons'),
  moves: (game, body) => call('POST', `/v1/games/${encodeURIComponent(game)}/moves`, body),
  score: (game, body) => call('POST', `/v1/games/${encodeURIComponent(game)}/score`, body),
  unseen: (game, body) => call('POST', `/v1/games/${encodeURIComponent(game)}/unseen`, body),
  cgp: (game, body) => call('POST', `/v1/games/${encodeURIComponent(game)}/cgp`, body),
  analyze: (game, body) => call('POST', `/v1/games/${encodeURIComponent(game)}/analyze`, body),
  compare: (body) => call('POST', '/v1/compare', body),
};
