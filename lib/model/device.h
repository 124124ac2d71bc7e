/* device.h — PyTorch's device types (c10/core/DeviceType.h, the "Device
 * Type" of Kineto's [memory] events) as names, and which of them are an
 * accelerator's memory (a GPU's: CUDA, HIP on ROCm, XPU, MPS, …). */
#ifndef AMD_MODEL_DEVICE_H
#define AMD_MODEL_DEVICE_H

enum { AMD_DEVICE_CPU = 0, AMD_DEVICE_CUDA = 1, AMD_DEVICE_HIP = 6 };

/* torch's name of device type t in lower case ("cpu", "cuda", "hip",
 * "xpu", …), "other" for a number torch does not define. */
const char *amd_device_type_name(int t);
/* 1 when device type t is an accelerator's own memory (every device
 * type but the CPU's and torch's CPU-side or virtual ones: MKLDNN,
 * IDEEP, Meta, Lazy; and unknown numbers), else 0. */
int amd_device_is_accelerator(int t);

#endif
