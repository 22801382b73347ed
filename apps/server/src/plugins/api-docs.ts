/** The API's own description, shown at /api/docs. Search semantics are documented here for API users. */
export const API_DOCS_DESCRIPTION = `
Public property-tax records of the municipalities hosted on this portal, and the calls their administrators use.

**Errors.** Every error is JSON: \`{ statusCode, code, message, error, fields? }\`. \`code\` is stable
(\`validation_failed\`, \`not_found\`, \`unauthorized\`, \`forbidden\`, \`too_many_requests\`, …); \`fields\` names
each offending input.

**States.** Wherever a state appears in a path or query, the full name (\`Maine\`) and the USPS abbreviation
(\`ME\`) are both accepted, in any case.

**Authentication.** \`POST /api/login\` returns an \`accessToken\`; send it as \`Authorization: Bearer <token>\`.
`;
