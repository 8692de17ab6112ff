export const MAX_ATTEMPTS = 4;

export class Retrier {
  constructor(private attempts: number = MAX_ATTEMPTS) {}

  async call<T>(fn: () => Promise<T>): Promise<T> {
    for (let i = 0; i < this.attempts; i++) {
      try {
        return await fn();
      } catch (err) {
        await sleep(2 ** i * 100);
      }
    }
    throw new Error("gateway did not answer");
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
