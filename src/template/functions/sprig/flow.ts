// sprig's fail: the template stops with the given message.
import { GoFuncError, goFunc, type FuncMap } from '../../value.ts';

export const flowFunctions: FuncMap = {
  fail: goFunc({ params: ['string'], results: ['string', 'error'] }, (msg: string) => {
    throw new GoFuncError(msg);
  }),
};
