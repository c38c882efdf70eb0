/** passport-discord ships no types: the part auth uses. */
declare module 'passport-discord' {
  import type { Strategy as OAuth2Strategy, StrategyOptions, VerifyFunction } from 'passport-oauth2';

  export interface DiscordStrategyOptions extends Omit<StrategyOptions, 'authorizationURL' | 'tokenURL'> {
    authorizationURL?: string;
    tokenURL?: string;
    scope?: string[];
  }

  export class Strategy extends OAuth2Strategy {
    constructor(options: DiscordStrategyOptions, verify: VerifyFunction);
  }
}
