// Package redact removes personal data and credentials from text before it
// leaves the process in a judge request.
//
// A Redactor runs a fixed set of detectors plus configured extra regular
// expressions and replaces every match with "[REDACTED:<type>]". The types
// are email, phone, card, iban, ip, api_key, bearer, jwt, secret and
// custom:<name>. Replacement is deterministic: the same input always gives
// the same output, and redacting already redacted text changes nothing.
//
// Detection rules, chosen so that the judge still sees ordinary numbers:
//
//   - email: local@domain.tld, the top-level label at least two letters.
//   - phone: digit groups joined by single spaces, dashes or dots, with
//     7 to 15 digits in all, in one of three shapes: a leading "+" or "00"
//     (international); a North American 3-3-4 grouping, optionally with a
//     leading 1 and the area code in parentheses; or a national number whose
//     first group starts with the trunk prefix 0 (9 to 12 digits, at least two
//     groups). A run of digits without separators is never a phone number,
//     so order ids, prices, years and timestamps are kept; so are dates
//     (year-month-day, day-month-year) and local numbers without an area
//     code. The exception is the value of a key naming a phone number
//     (phone, phone_number, tel, mobile, fax, ...), redacted when it is 7
//     to 15 digits with or without separators.
//   - card: 13 to 19 digits, plain or grouped with spaces or dashes, that
//     start with 2 to 6 (the issuer ranges of the card networks, which
//     leaves out epoch-millisecond timestamps) and pass the Luhn check.
//     Grouped numbers start with a group of four and have groups of three
//     to six digits. A longer grouped run is searched for a valid card on
//     group boundaries.
//   - iban: two capital letters, two check digits and 11 to 30 letters or
//     digits, plain or in space-separated groups, that pass the ISO 13616
//     mod-97 check.
//   - ip: dotted IPv4 and IPv6 candidates accepted by net/netip.
//   - api_key: OpenAI (sk-, sk-proj-), Anthropic (sk-ant-), AWS access key
//     ids (AKIA, ASIA), GitHub (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_),
//     Slack (xoxa-, xoxb-, xoxp-, xoxr-, xoxs-) and Google (AIza) keys.
//   - jwt: three base64url segments, the first starting with eyJ.
//   - bearer: the token after "Bearer" (at least 16 characters, or 8 with a
//     digit), and the value of an Authorization or Proxy-Authorization
//     header.
//   - secret: the value in key=value, key: value and "key": "value" pairs
//     whose key ends in password, passwd, passphrase, secret, token,
//     api_key, apikey, access_key, private_key, private_key_id,
//     account_key or credentials (separators and case ignored), and the
//     password of scheme://user:password@host URLs, and PEM private key
//     blocks. Empty values, objects, arrays and true, false, null and none
//     are kept. Bare cloud keys in free text: AWS secret access keys (40
//     base64 characters in mixed case, of entropy >= 4.5 bits a character,
//     or >= 4.3 with aws, secret, credential, AKIA or ASIA in the 160 bytes
//     before), Azure storage account keys (86 base64 characters and "==")
//     and Azure AD client secrets (the "Q~" format). Hex (git hashes, trace
//     ids) is never taken for a key.
//
// Counts of redactions per type go to the evalsidecar_judge_redactions_total
// counter; values are never logged or counted.
package redact
