// The torchvision pieces Glasstorch carries (exported as torch.torchvision in JS, since there is no
// separate package): datasets.FashionMNIST (+ the synthetic stand-in) and transforms.ToTensor/Normalize/Compose.
export * as datasets from "./torchvision_datasets.js";
export * as transforms from "./transforms.js";
