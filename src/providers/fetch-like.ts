/** The `fetch` the SDKs are handed, and each layer around it (rate limit, attempt deadline) takes and returns. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
