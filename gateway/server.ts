/**
 * Runs a gateway on an HTTP port against a node: its gRPC address (the gateway makes and closes the client), or a
 * ready client of the generated type (the caller's, e.g. the node's in-process transport; the gateway leaves it
 * open). Several gateways can serve one node.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGateway, type GatewayOptions } from './app.ts';
import { createNodeClient, type NodeServiceClient } from './node-client.ts';

/** Hornet's REST port. */
export const DEFAULT_REST_PORT = 14265;

interface ListenOptions extends Omit<GatewayOptions, 'client'> {
  /** Listen address; 127.0.0.1 by default. */
  host?: string;
  /** Listen port; 14265 by default, 0 for any free port. */
  port?: number;
}

/** Either `nodeAddress` (the node's gRPC `host:port`) or `client` (a ready client, not closed by the gateway). */
export type StartGatewayOptions = ListenOptions & ({ nodeAddress: string; client?: undefined } | { client: NodeServiceClient; nodeAddress?: undefined });

export interface RunningGateway {
  /** The port actually bound. */
  port: number;
  server: Server;
  close(): Promise<void>;
}

export async function startGateway(options: StartGatewayOptions): Promise<RunningGateway> {
  const { nodeAddress, client: given, host = '127.0.0.1', port = DEFAULT_REST_PORT, ...rest } = options;
  if ((nodeAddress === undefined) === (given === undefined)) throw new TypeError('startGateway: give either nodeAddress or client');
  const client = given ?? createNodeClient(nodeAddress!);
  const closeClient = (): void => {
    if (given === undefined) client.close();
  };
  const server = createServer(createGateway({ ...rest, client }).callback());
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    closeClient();
    throw err;
  }
  return {
    port: (server.address() as AddressInfo).port,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => {
          closeClient();
          if (err) reject(err);
          else resolve();
        });
        server.closeAllConnections();
      }),
  };
}
