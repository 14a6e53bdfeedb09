#include "status.h"

const char *vproc_strerror(vproc_status st)
{
	switch (st) {
	case VPROC_OK:     return "success";
	case VPROC_EINVAL: return "invalid argument";
	case VPROC_ENOMEM: return "out of memory";
	case VPROC_ERANGE: return "size out of range";
	}
	return "unknown vproc status";
}
