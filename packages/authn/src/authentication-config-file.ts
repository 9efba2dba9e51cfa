import { z } from 'zod';

// The file as written: strict objects (an unknown field is an error, as upstream's strict decoding),
// every field optional here so the validate pass below can name what is missing.
const str = z.string().nullish();
const prefixedClaimOrExpression = z.strictObject({ claim: str, prefix: str, expression: str });
const claimOrExpression = z.strictObject({ claim: str, expression: str });
/** The zod schema of an AuthenticationConfiguration file as written. */
export const authenticationConfigFileSchema = z.strictObject({
  apiVersion: z.string(),
  kind: z.literal('AuthenticationConfiguration'),
  jwt: z
    .array(
      z.strictObject({
        issuer: z
          .strictObject({
            url: str,
            discoveryURL: str,
            certificateAuthority: str,
            audiences: z.array(z.string()).nullish(),
            audienceMatchPolicy: str,
          })
          .nullish(),
        claimValidationRules: z
          .array(z.strictObject({ claim: str, requiredValue: str, expression: str, message: str }))
          .nullish(),
        claimMappings: z
          .strictObject({
            username: prefixedClaimOrExpression.nullish(),
            groups: prefixedClaimOrExpression.nullish(),
            uid: claimOrExpression.nullish(),
            extra: z.array(z.strictObject({ key: str, valueExpression: str })).nullish(),
          })
          .nullish(),
        userValidationRules: z.array(z.strictObject({ expression: str, message: str })).nullish(),
      }),
    )
    .nullish(),
  anonymous: z
    .strictObject({
      enabled: z.boolean(),
      conditions: z.array(z.strictObject({ path: z.string() })).nullish(),
    })
    .nullish(),
});
/** An AuthenticationConfiguration file that passed the schema. */
export type AuthenticationConfigFile = z.infer<typeof authenticationConfigFileSchema>;
/** One `jwt[]` entry of the file, as written. */
export type JwtAuthenticatorEntry = NonNullable<AuthenticationConfigFile['jwt']>[number];
