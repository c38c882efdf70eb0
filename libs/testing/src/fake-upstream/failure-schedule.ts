/**
 * Decides which requests get an injected failure. With rate r, request n (counting from 1)
 * fails when floor(n * r) grows, so failures are spread evenly and exactly reproducible:
 * r = 0.25 fails requests 4, 8, 12, …; r = 1 fails all; r = 0 none.
 */
export class FailureSchedule {
  private seen = 0;

  shouldFail(rate: number): boolean {
    if (rate <= 0) return false;
    this.seen += 1;
    if (rate >= 1) return true;
    return Math.floor(this.seen * rate) > Math.floor((this.seen - 1) * rate);
  }

  reset(): void {
    this.seen = 0;
  }
}
