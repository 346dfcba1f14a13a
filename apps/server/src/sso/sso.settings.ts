// Single sign-on providers of the settings file (`sso.oidc`, `sso.saml`) and how their groups become
// portal groups. settings.ts composes them into the file's schema.
import { z } from 'zod';

/** How the groups an identity provider names become portal groups (just-in-time accounts). */
const groupMapping = {
  groupMap: z
    .record(z.string(), z.union([z.string(), z.array(z.string())]))
    .default({})
    .describe('identity-provider group → portal group(s)'),
  defaultGroups: z.array(z.string()).default([]).describe('portal groups every account of this provider gets'),
};
const providerName = z
  .string()
  .regex(/^[a-z0-9-]{1,32}$/, 'lower-case letters, digits and - only')
  .describe('Shown on the login button and used in the provider URLs');

const oidcProviderSchema = z.object({
  name: providerName.default('oidc'),
  issuer: z.url().describe('Discovery runs against ISSUER/.well-known/openid-configuration'),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1).optional(),
  scopes: z.string().default('openid profile email'),
  groupsClaim: z.string().default('groups'),
  ...groupMapping,
});
export type OidcProviderSettings = z.infer<typeof oidcProviderSchema>;

const samlProviderSchema = z.object({
  name: providerName.default('saml'),
  entryPoint: z.url().describe('The single sign-on URL of the identity provider'),
  idpCert: z.string().min(1).describe("The identity provider's signing certificate (PEM)"),
  idpIssuer: z.string().optional().describe('When set, assertions from any other issuer are refused'),
  spEntityId: z.string().optional().describe('Our entity id (audience); default: the metadata URL'),
  groupsAttribute: z.string().default('groups'),
  nameAttribute: z.string().optional().describe('Attribute with the user name; default: the NameID'),
  allowIdpInitiated: z
    .boolean()
    .default(false)
    .describe('Accept answers the identity provider sends unasked (IdP-initiated); they cannot be bound to a browser'),
  ...groupMapping,
});
export type SamlProviderSettings = z.infer<typeof samlProviderSchema>;

export const ssoSettingSchema = z
  .object({
    oidc: z.array(oidcProviderSchema).default([]),
    saml: z.array(samlProviderSchema).default([]),
  })
  .prefault({});
