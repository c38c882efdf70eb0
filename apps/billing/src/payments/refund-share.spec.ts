import { kopecksOf, refundShare, rublesOf } from './refund-share';

describe('refund shares', () => {
  const payment = { total: 6_250_000, wholeKopecks: kopecksOf('1000') };

  it('takes back a proportional share, rounded down', () => {
    expect(refundShare({ ...payment, doneKopecks: 0n, takenBefore: 0 }, kopecksOf('100'))).toBe(625_000);
    expect(refundShare({ ...payment, doneKopecks: 0n, takenBefore: 0 }, kopecksOf('0.01'))).toBe(62);
    expect(refundShare({ total: 10, wholeKopecks: 300n, doneKopecks: 0n, takenBefore: 0 }, 100n)).toBe(3);
  });

  it('lets the refund that completes the amount take exactly what is left', () => {
    let done = 0n;
    let taken = 0;
    for (const part of ['333.33', '333.33', '333.34']) {
      const share = refundShare({ ...payment, doneKopecks: done, takenBefore: taken }, kopecksOf(part));
      done += kopecksOf(part);
      taken += share;
    }
    expect(done).toBe(payment.wholeKopecks);
    expect(taken).toBe(payment.total);
    expect(refundShare({ ...payment, doneKopecks: 0n, takenBefore: 0 }, payment.wholeKopecks)).toBe(
      payment.total,
    );
  });

  it('refuses nothing and more than is left', () => {
    expect(() => refundShare({ ...payment, doneKopecks: 0n, takenBefore: 0 }, 0n)).toThrow(RangeError);
    expect(() =>
      refundShare({ ...payment, doneKopecks: kopecksOf('900'), takenBefore: 0 }, kopecksOf('100.01')),
    ).toThrow(RangeError);
  });

  it('converts rubles and kopecks exactly', () => {
    expect(kopecksOf('1000')).toBe(100_000n);
    expect(kopecksOf('0.5')).toBe(50n);
    expect(rublesOf(10_050n)).toBe('100.5');
    expect(rublesOf(7n)).toBe('0.07');
    expect(rublesOf(0n)).toBe('0');
  });
});
