/* device.c — PyTorch's DeviceType numbers as names and as CPU or
 * accelerator memory (see device.h). The table follows torch's enum
 * (c10/core/DeviceType.h): its numbers are part of torch's ABI. */
#include "device.h"

#include <stddef.h>

static const struct {
	const char *name;
	int accelerator;
} types[] = {
	{"cpu", 0},   {"cuda", 1},  {"mkldnn", 0}, {"opengl", 1}, {"opencl", 1},
	{"ideep", 0}, {"hip", 1},   {"fpga", 1},   {"maia", 1},   {"xla", 1},
	{"vulkan", 1}, {"metal", 1}, {"xpu", 1},   {"mps", 1},    {"meta", 0},
	{"hpu", 1},   {"ve", 1},    {"lazy", 0},   {"ipu", 1},    {"mtia", 1},
	{"privateuseone", 1},
};

const char *amd_device_type_name(int t)
{
	return t >= 0 && (size_t)t < sizeof types / sizeof types[0] ? types[t].name : "other";
}

int amd_device_is_accelerator(int t)
{
	return t >= 0 && (size_t)t < sizeof types / sizeof types[0] && types[t].accelerator;
}
