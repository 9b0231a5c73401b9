// A listen that failed, in the words a user acts on: which port, and which flag chooses another.
import { messageOf } from '../apimachinery/error-message.ts';

export function explainListen(error: unknown, bind: string, port: number, portFlag: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return `port ${port} on ${bind} is already in use (choose another with ${portFlag})`;
  if (code === 'EACCES') return `not allowed to listen on ${bind}:${port}`;
  if (code === 'EADDRNOTAVAIL') return `cannot bind ${bind}: no such local address`;
  return messageOf(error);
}
