/**
 * HS256 JSON Web Tokens: the implementation lives in src/grpc/jwt.ts, since the node's service door checks the same
 * tokens as the REST gateway's protected routes.
 */
export * from '../src/grpc/jwt.ts';
