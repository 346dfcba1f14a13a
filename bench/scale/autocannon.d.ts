// The parts of autocannon's API the scale test uses (the package ships no types).
declare module 'autocannon' {
  export interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    /** Our own label of the call, read back when its answer comes. */
    name?: string;
    setupRequest?: (req: Request, context: Record<string, unknown>) => Request;
    onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
  }
  export interface Options {
    url: string;
    connections: number;
    duration: number;
    timeout?: number;
    requests: Request[];
  }
  export interface Client {
    requestIterator: { context: Record<string, unknown> };
  }
  export interface Result {
    requests: { average: number; total: number };
    latency: { p50: number; p97_5: number; p99: number };
    errors: number;
    timeouts: number;
    non2xx: number;
  }
  export interface Instance extends PromiseLike<Result> {
    on(event: 'response', listener: (client: Client, status: number, bytes: number, ms: number) => void): void;
  }
  export default function autocannon(options: Options): Instance;
}
