/** The datasets a scenario may name: plain lists, no schema (the page reads them; setupSchemas.ts checks with them). */

/** The seeded 2-D datasets (src/train/datasets.ts). */
export const toyDatasetKinds = ['spiral', 'circles', 'xor', 'gaussians'] as const;
/** Every dataset a scenario may name: the 2-D ones, and a 5 000-image Fashion-MNIST subset (784 inputs, 10 classes). */
export const datasetKinds = [...toyDatasetKinds, 'fashion-mnist'] as const;
export type ToyDatasetKind = (typeof toyDatasetKinds)[number];
/** Training images in the committed Fashion-MNIST subset: the most `model.samples` may ask for. */
export const FASHION_TRAIN_IMAGES = 5000;
