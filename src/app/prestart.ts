// The cold-start door: the three functions a cold `groove search` calls before the rest of groove loads, so its
// inference thread can start early. It reaches only the models feature (importing app/index.ts would load every
// feature first, about ten times the import time); everything else goes through app/index.ts.
export { prestartInference, searchOpensLocalModel, stopUnusedInference } from './embedding/index.js';
