export {
  FakeOAuthProvider,
  type FakeOAuthAccount,
  type FakeOAuthClient,
  type FakeOAuthEndpoints,
  type FakeOAuthProviderName,
} from './fake-oauth-provider';
