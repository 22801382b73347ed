import { describe, expect, it } from 'vitest';
import { bannerStep, checkBannerFile } from './banner-choice';

const file = (name: string, size = 10) => new File([new Uint8Array(size)], name);

describe('banner save steps (spec §4)', () => {
  it('a new file replaces an existing banner, creates one when there is none; remove deletes', () => {
    const f = file('b.png');
    expect(bannerStep('old.png', { kind: 'new', file: f })).toEqual({
      op: 'replace',
      current: 'old.png',
      file: f,
    });
    expect(bannerStep(null, { kind: 'new', file: f })).toEqual({ op: 'create', file: f });
    expect(bannerStep('old.png', { kind: 'remove' })).toEqual({ op: 'delete', current: 'old.png' });
    expect(bannerStep(null, { kind: 'remove' })).toEqual({ op: 'none' });
    expect(bannerStep('old.png', { kind: 'keep' })).toEqual({ op: 'none' });
  });

  it('accepts only png, jpeg and jpg files up to 5 MB (spec §5, §9)', () => {
    expect(checkBannerFile(file('a.PNG'))).toBeNull();
    expect(checkBannerFile(file('a.jpeg'))).toBeNull();
    expect(checkBannerFile(file('a.jpg'))).toBeNull();
    expect(checkBannerFile(file('a.gif'))).toMatch(/PNG or JPEG/);
    expect(checkBannerFile(file('png'))).toMatch(/PNG or JPEG/);
    expect(checkBannerFile(file('a.png', 5 * 1024 * 1024 + 1))).toMatch(/5 MB/);
  });
});
