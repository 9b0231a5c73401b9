// sprig v3's TxtFuncMap except env and expandenv: a template must not read the process environment.
import type { FuncMap } from '../../value.ts';
import { cryptoFunctions } from './crypto.ts';
import { dateFunctions } from './dates.ts';
import { defaultFunctions } from './defaults.ts';
import { dictFunctions } from './dicts.ts';
import { encodingFunctions } from './encoding.ts';
import { flowFunctions } from './flow.ts';
import { listFunctions } from './lists.ts';
import { mathFunctions } from './math.ts';
import { pathFunctions } from './paths.ts';
import { reflectFunctions } from './reflect.ts';
import { regexFunctions } from './regex.ts';
import { semverFunctions } from './semver.ts';
import { stringFunctions } from './strings.ts';
import { urlFunctions } from './url.ts';



export function sprigFunctions(): FuncMap {
  return {
    ...stringFunctions, ...mathFunctions, ...defaultFunctions, ...dictFunctions, ...listFunctions, ...encodingFunctions,
    ...regexFunctions, ...semverFunctions, ...dateFunctions, ...cryptoFunctions, ...reflectFunctions, ...pathFunctions,
    ...urlFunctions, ...flowFunctions,
  };
}
