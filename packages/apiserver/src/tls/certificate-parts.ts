/**
 * The parts of the generated certificates that are the same in every one, DER-encoded beforehand
 * (`certificate-parts.test.ts` checks each against what `der.ts` builds from its definition): a
 * process's first certificates encode no object identifier or fixed extension at run time.
 */
const der = (hex: string): Buffer => Buffer.from(hex, 'hex');

/** Fixed DER parts of a certificate (RFC 5280 §4.1 and §4.2.1). */
export const certificateParts = Object.freeze({
  /** `[0] EXPLICIT INTEGER 2`: an X.509 v3 certificate. */
  version3: der('a003020102'),
  /** AlgorithmIdentifier { ecdsa-with-SHA256 (1.2.840.10045.4.3.2) }, no parameters (RFC 5758). */
  ecdsaWithSha256: der('300a06082a8648ce3d040302'),
  /** OBJECT IDENTIFIER id-at-commonName (2.5.4.3). */
  commonName: der('0603550403'),
  /** OBJECT IDENTIFIER id-at-organizationName (2.5.4.10). */
  organization: der('060355040a'),
  /** OBJECT IDENTIFIER id-ce-subjectKeyIdentifier (2.5.29.14). */
  subjectKeyIdentifier: der('0603551d0e'),
  /** OBJECT IDENTIFIER id-ce-authorityKeyIdentifier (2.5.29.35). */
  authorityKeyIdentifier: der('0603551d23'),
  /** OBJECT IDENTIFIER id-ce-subjectAltName (2.5.29.17). */
  subjectAltName: der('0603551d11'),
  /** Extension basicConstraints (2.5.29.19), critical, `cA` TRUE. */
  caBasicConstraints: der('300f0603551d130101ff040530030101ff'),
  /** Extension keyUsage (2.5.29.15), critical: digitalSignature, keyCertSign, cRLSign. */
  caKeyUsage: der('300e0603551d0f0101ff040403020186'),
  /** Extension basicConstraints, critical, empty (`cA` FALSE by default). */
  leafBasicConstraints: der('300c0603551d130101ff04023000'),
  /** Extension keyUsage, critical: digitalSignature, keyEncipherment. */
  leafKeyUsage: der('300e0603551d0f0101ff0404030205a0'),
  /** Extension extKeyUsage (2.5.29.37): id-kp-serverAuth (1.3.6.1.5.5.7.3.1). */
  serverAuth: der('30130603551d25040c300a06082b06010505070301'),
  /** Extension extKeyUsage: id-kp-clientAuth (1.3.6.1.5.5.7.3.2). */
  clientAuth: der('30130603551d25040c300a06082b06010505070302'),
});
