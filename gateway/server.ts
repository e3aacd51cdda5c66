/** Runs a gateway on an HTTP port against a node's gRPC address. Several gateways can serve one node. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGateway, type GatewayOptions } from './app.ts';
import { createNodeClient } from './node-client.ts';

/** Hornet's REST port. */
export const DEFAULT_REST_PORT = 14265;

export interface StartGatewayOptions extends Omit<GatewayOptions, 'client'> {
  /** The node's gRPC `host:port`. */
  nodeAddress: string;
  /** Listen address; 127.0.0.1 by default. */
  host?: string;
  /** Listen port; 14265 by default, 0 for any free port. */
  port?: number;
}

export interface RunningGateway {
  /** The port actually bound. */
  port: number;
  server: Server;
  close(): Promise<void>;
}

export async function startGateway(options: StartGatewayOptions): Promise<RunningGateway> {
  const { nodeAddress, host = '127.0.0.1', port = DEFAULT_REST_PORT, ...rest } = options;
  const client = createNodeClient(nodeAddress);
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
    client.close();
    throw err;
  }
  return {
    port: (server.address() as AddressInfo).port,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => {
          client.close();
          if (err) reject(err);
          else resolve();
        });
        server.closeAllConnections();
      }),
  };
}
