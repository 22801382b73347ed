import http from 'node:http';

/*
 * A thin keep-alive HTTP client. fetch (undici) costs noticeably more CPU per request, and on a 2-core
 * machine the load generator shares the CPU with the server it measures, so the client stays minimal.
 */

export interface HttpResult {
  status: number;
  ms: number;
  bytes: number;
  body: string;
}

export class HttpClient {
  private readonly agent: http.Agent;
  private readonly base: URL;

  constructor(baseUrl: string, maxSockets = 64) {
    this.base = new URL(baseUrl);
    this.agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  }

  /** Sends a request and reads the whole body; `keepBody: false` only counts bytes (large exports). */
  request(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    options: { keepBody?: boolean; timeoutMs?: number } = {},
  ): Promise<HttpResult> {
    const keepBody = options.keepBody ?? true;
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: this.base.hostname,
          port: this.base.port,
          method,
          path,
          agent: this.agent,
          headers: payload
            ? { 'content-type': 'application/json', 'content-length': payload.length }
            : undefined,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let bytes = 0;
          res.on('data', (c: Buffer) => {
            bytes += c.length;
            if (keepBody) chunks.push(c);
          });
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              ms: performance.now() - started,
              bytes,
              body: keepBody ? Buffer.concat(chunks).toString('utf8') : '',
            }),
          );
          res.on('error', reject);
        },
      );
      req.setTimeout(options.timeoutMs ?? 60_000, () => req.destroy(new Error(`timeout: ${method} ${path}`)));
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
  }

  get(path: string, options?: { keepBody?: boolean; timeoutMs?: number }) {
    return this.request('GET', path, undefined, options);
  }

  post(path: string, body: unknown, options?: { keepBody?: boolean; timeoutMs?: number }) {
    return this.request('POST', path, body, options);
  }

  close() {
    this.agent.destroy();
  }
}
