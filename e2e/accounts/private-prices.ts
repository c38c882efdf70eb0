import { randomBytes } from 'node:crypto';
import type { AdminUserView, PricingResponse } from '@tollgate/contracts';
import { DEFAULT_FAKE_UPSTREAM_KEYS, eventually, FAKE_UPSTREAM_PRICE } from '@tollgate/testing';
import { Browser } from '../support/accounts-browser';
import type { AccountsPlatform } from '../support/accounts-platform';

const PASSWORD = 'correct-horse-9';

/**
 * A company's private channel stays off the public price list: root prices two models of this run and
 * adds a channel for each, one for the default group and one for a company's group with a ratio of its
 * own. Through the gateway, an anonymous visitor sees the public model only and no company ratio, the
 * company's user sees both and their ratio, root sees everything. Admin tells billing which channel
 * serves what over catalog.channel-models, so this crosses admin, Kafka, billing, auth and the gateway.
 */
export function privatePrices(platform: () => AccountsPlatform): void {
  describe('the public price list and a private channel', () => {
    let root: Browser;
    let member: Browser;
    let visitor: Browser;
    let publicModel: string;
    let privateModel: string;
    let company: string;

    const priceList = async (browser: Browser) => {
      const answer = await browser.call('/api/pricing');
      expect(answer.status).toBe(200);
      const body = answer.body as unknown as PricingResponse;
      return { models: body.data.map((row) => row.model), ratios: body.group_ratio };
    };

    beforeAll(async () => {
      const { runId, url } = platform();
      // Of this run only: other runs' channels on the shared broker serve neither.
      publicModel = `pub-${runId}`.toLowerCase();
      privateModel = `priv-${runId}`.toLowerCase();
      company = `co_${runId}`.toLowerCase();
      root = await platform().signedInRoot();
      const accepted = async (step: string, answer: Promise<{ status: number; body: unknown }>) => {
        const { status, body } = await answer;
        if (status !== 200) throw new Error(`${step} answered ${status}: ${JSON.stringify(body)}`);
        return body as { data?: unknown };
      };
      for (const [model, group] of [
        [publicModel, 'default'],
        [privateModel, company],
      ] as const) {
        await accepted(
          `pricing ${model}`,
          root.call(`/api/pricing/models/${model}`, {
            method: 'PUT',
            body: { ...FAKE_UPSTREAM_PRICE, intelligence: 3, speed: 3, sota: false, deprecated: false },
          }),
        );
        await accepted(
          `the channel for ${model}`,
          root.call('/api/channel/', {
            body: {
              type: 1,
              name: `e2e prices ${model}`,
              key: DEFAULT_FAKE_UPSTREAM_KEYS.openai,
              models: model,
              group,
            },
          }),
        );
      }
      await accepted(
        'the company ratio',
        root.call(`/api/pricing/groups/${company}`, { method: 'PUT', body: { ratio: '0.8' } }),
      );

      const username = `u${randomBytes(5).toString('hex')}`;
      const created = await accepted(
        'the company user',
        root.call('/api/user/', { body: { username, password: PASSWORD } }),
      );
      const userId = (created.data as AdminUserView).id;
      await accepted(
        "the user's group",
        root.call('/api/user/', { method: 'PUT', body: { id: userId, group: company } }),
      );
      member = new Browser(url);
      expect((await member.signIn(username, PASSWORD)).status).toBe(200);
      visitor = new Browser(url);
    });

    it("lists the default channel's model to an anonymous visitor, never the company's model or ratio", async () => {
      const seen = await eventually('the public model on the price list', async () => {
        const list = await priceList(visitor);
        return list.models.includes(publicModel) ? list : undefined;
      });
      expect(seen.models).not.toContain(privateModel);
      expect(Object.keys(seen.ratios)).not.toContain(company);
    });

    it("lists the company's model and ratio to its own user, and everything to root", async () => {
      const ownList = await eventually("the company's model on its user's price list", async () => {
        const list = await priceList(member);
        return list.models.includes(privateModel) ? list : undefined;
      });
      // What relay serves the company's keys: its own group's channels, not default's.
      expect(ownList.models).not.toContain(publicModel);
      expect(ownList.ratios[company]).toBe(0.8);
      const everything = await priceList(root);
      expect(everything.models).toEqual(expect.arrayContaining([publicModel, privateModel]));
      expect(everything.ratios[company]).toBe(0.8);
      // Still absent for the visitor once the company's user sees it: not a matter of timing.
      expect((await priceList(visitor)).models).not.toContain(privateModel);
    });
  });
}
