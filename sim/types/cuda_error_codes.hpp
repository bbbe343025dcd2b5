// CUDA 13's error codes: each name, its value and the text cudaGetErrorString gives,
// as CUDA 13.0's libcudart returns them (cudaGetErrorName and cudaGetErrorString need no
// GPU: read on a machine with the toolkit; the values are driver_types.h's). A program
// may test for any of them, though simtlab returns only some (sim/cuda/runtime.cpp).
#pragma once

// SIMT_CUDA_ERROR_CODES(E) expands E(name, value, text) once per code, in value order.
#define SIMT_CUDA_ERROR_CODES(E) \
  E(cudaSuccess, 0, "no error") \
  E(cudaErrorInvalidValue, 1, "invalid argument") \
  E(cudaErrorMemoryAllocation, 2, "out of memory") \
  E(cudaErrorInitializationError, 3, "initialization error") \
  E(cudaErrorCudartUnloading, 4, "driver shutting down") \
  E(cudaErrorProfilerDisabled, 5, "profiler disabled while using external profiling tool") \
  E(cudaErrorProfilerNotInitialized, 6, "profiler not initialized: call cudaProfilerInitialize()") \
  E(cudaErrorProfilerAlreadyStarted, 7, "profiler already started") \
  E(cudaErrorProfilerAlreadyStopped, 8, "profiler already stopped") \
  E(cudaErrorInvalidConfiguration, 9, "invalid configuration argument") \
  E(cudaErrorInvalidPitchValue, 12, "invalid pitch argument") \
  E(cudaErrorInvalidSymbol, 13, "invalid device symbol") \
  E(cudaErrorInvalidHostPointer, 16, "invalid host pointer") \
  E(cudaErrorInvalidDevicePointer, 17, "invalid device pointer") \
  E(cudaErrorInvalidTexture, 18, "invalid texture reference") \
  E(cudaErrorInvalidTextureBinding, 19, "texture is not bound to a pointer") \
  E(cudaErrorInvalidChannelDescriptor, 20, "invalid channel descriptor") \
  E(cudaErrorInvalidMemcpyDirection, 21, "invalid copy direction for memcpy") \
  E(cudaErrorAddressOfConstant, 22, "invalid address of constant") \
  E(cudaErrorTextureFetchFailed, 23, "fetch from texture failed") \
  E(cudaErrorTextureNotBound, 24, "cannot fetch from a texture that is not bound") \
  E(cudaErrorSynchronizationError, 25, "incorrect use of __syncthreads()") \
  E(cudaErrorInvalidFilterSetting, 26, "linear filtering not supported for non-float type") \
  E(cudaErrorInvalidNormSetting, 27, "read as normalized float not supported for data type") \
  E(cudaErrorMixedDeviceExecution, 28, "device emulation mode and device execution mode cannot be mixed") \
  E(cudaErrorNotYetImplemented, 31, "feature not yet implemented") \
  E(cudaErrorMemoryValueTooLarge, 32, "memory size or pointer value too large to fit in 32 bit") \
  E(cudaErrorStubLibrary, 34, "CUDA driver is a stub library") \
  E(cudaErrorInsufficientDriver, 35, "CUDA driver version is insufficient for CUDA runtime version") \
  E(cudaErrorCallRequiresNewerDriver, 36, "API call is not supported in the installed CUDA driver") \
  E(cudaErrorInvalidSurface, 37, "invalid surface reference") \
  E(cudaErrorDuplicateVariableName, 43, "duplicate global variable looked up by string name") \
  E(cudaErrorDuplicateTextureName, 44, "duplicate texture looked up by string name") \
  E(cudaErrorDuplicateSurfaceName, 45, "duplicate surface looked up by string name") \
  E(cudaErrorDevicesUnavailable, 46, "CUDA-capable device(s) is/are busy or unavailable") \
  E(cudaErrorIncompatibleDriverContext, 49, "incompatible driver context") \
  E(cudaErrorMissingConfiguration, 52, "__global__ function call is not configured") \
  E(cudaErrorPriorLaunchFailure, 53, "unspecified launch failure in prior launch") \
  E(cudaErrorLaunchMaxDepthExceeded, 65, "launch would exceed maximum depth of nested launches") \
  E(cudaErrorLaunchFileScopedTex, 66, "launch failed because kernel uses unsupported, file-scoped textures (texture objects are supported)") \
  E(cudaErrorLaunchFileScopedSurf, 67, "launch failed because kernel uses unsupported, file-scoped surfaces (surface objects are supported)") \
  E(cudaErrorSyncDepthExceeded, 68, "cudaDeviceSynchronize failed because caller's grid depth exceeds cudaLimitDevRuntimeSyncDepth") \
  E(cudaErrorLaunchPendingCountExceeded, 69, "launch failed because launch would exceed cudaLimitDevRuntimePendingLaunchCount") \
  E(cudaErrorInvalidDeviceFunction, 98, "invalid device function") \
  E(cudaErrorNoDevice, 100, "no CUDA-capable device is detected") \
  E(cudaErrorInvalidDevice, 101, "invalid device ordinal") \
  E(cudaErrorDeviceNotLicensed, 102, "device doesn't have valid Grid license") \
  E(cudaErrorSoftwareValidityNotEstablished, 103, "integrity checks failed") \
  E(cudaErrorStartupFailure, 127, "startup failure in cuda runtime") \
  E(cudaErrorInvalidKernelImage, 200, "device kernel image is invalid") \
  E(cudaErrorDeviceUninitialized, 201, "invalid device context") \
  E(cudaErrorMapBufferObjectFailed, 205, "mapping of buffer object failed") \
  E(cudaErrorUnmapBufferObjectFailed, 206, "unmapping of buffer object failed") \
  E(cudaErrorArrayIsMapped, 207, "array is mapped") \
  E(cudaErrorAlreadyMapped, 208, "resource already mapped") \
  E(cudaErrorNoKernelImageForDevice, 209, "no kernel image is available for execution on the device") \
  E(cudaErrorAlreadyAcquired, 210, "resource already acquired") \
  E(cudaErrorNotMapped, 211, "resource not mapped") \
  E(cudaErrorNotMappedAsArray, 212, "resource not mapped as array") \
  E(cudaErrorNotMappedAsPointer, 213, "resource not mapped as pointer") \
  E(cudaErrorECCUncorrectable, 214, "uncorrectable ECC error encountered") \
  E(cudaErrorUnsupportedLimit, 215, "limit is not supported on this architecture") \
  E(cudaErrorDeviceAlreadyInUse, 216, "exclusive-thread device already in use by a different thread") \
  E(cudaErrorPeerAccessUnsupported, 217, "peer access is not supported between these two devices") \
  E(cudaErrorInvalidPtx, 218, "a PTX JIT compilation failed") \
  E(cudaErrorInvalidGraphicsContext, 219, "invalid OpenGL or DirectX context") \
  E(cudaErrorNvlinkUncorrectable, 220, "uncorrectable NVLink error detected during the execution") \
  E(cudaErrorJitCompilerNotFound, 221, "PTX JIT compiler library not found") \
  E(cudaErrorUnsupportedPtxVersion, 222, "the provided PTX was compiled with an unsupported toolchain.") \
  E(cudaErrorJitCompilationDisabled, 223, "PTX JIT compilation was disabled") \
  E(cudaErrorUnsupportedExecAffinity, 224, "the provided execution affinity is not supported") \
  E(cudaErrorUnsupportedDevSideSync, 225, "the provided PTX contains unsupported call to cudaDeviceSynchronize") \
  E(cudaErrorContained, 226, "Invalid access of peer GPU memory over nvlink or a hardware error") \
  E(cudaErrorInvalidSource, 300, "device kernel image is invalid") \
  E(cudaErrorFileNotFound, 301, "file not found") \
  E(cudaErrorSharedObjectSymbolNotFound, 302, "shared object symbol not found") \
  E(cudaErrorSharedObjectInitFailed, 303, "shared object initialization failed") \
  E(cudaErrorOperatingSystem, 304, "OS call failed or operation not supported on this OS") \
  E(cudaErrorInvalidResourceHandle, 400, "invalid resource handle") \
  E(cudaErrorIllegalState, 401, "the operation cannot be performed in the present state") \
  E(cudaErrorLossyQuery, 402, "attempted introspection would be semantically lossy") \
  E(cudaErrorSymbolNotFound, 500, "named symbol not found") \
  E(cudaErrorNotReady, 600, "device not ready") \
  E(cudaErrorIllegalAddress, 700, "an illegal memory access was encountered") \
  E(cudaErrorLaunchOutOfResources, 701, "too many resources requested for launch") \
  E(cudaErrorLaunchTimeout, 702, "the launch timed out and was terminated") \
  E(cudaErrorLaunchIncompatibleTexturing, 703, "launch uses incompatible texturing mode") \
  E(cudaErrorPeerAccessAlreadyEnabled, 704, "peer access is already enabled") \
  E(cudaErrorPeerAccessNotEnabled, 705, "peer access has not been enabled") \
  E(cudaErrorSetOnActiveProcess, 708, "cannot set while device is active in this process") \
  E(cudaErrorContextIsDestroyed, 709, "context is destroyed") \
  E(cudaErrorAssert, 710, "device-side assert triggered") \
  E(cudaErrorTooManyPeers, 711, "peer mapping resources exhausted") \
  E(cudaErrorHostMemoryAlreadyRegistered, 712, "part or all of the requested memory range is already mapped") \
  E(cudaErrorHostMemoryNotRegistered, 713, "pointer does not correspond to a registered memory region") \
  E(cudaErrorHardwareStackError, 714, "hardware stack error") \
  E(cudaErrorIllegalInstruction, 715, "an illegal instruction was encountered") \
  E(cudaErrorMisalignedAddress, 716, "misaligned address") \
  E(cudaErrorInvalidAddressSpace, 717, "operation not supported on global/shared address space") \
  E(cudaErrorInvalidPc, 718, "invalid program counter") \
  E(cudaErrorLaunchFailure, 719, "unspecified launch failure") \
  E(cudaErrorCooperativeLaunchTooLarge, 720, "too many blocks in cooperative launch") \
  E(cudaErrorTensorMemoryLeak, 721, "tensor memory not completely freed") \
  E(cudaErrorNotPermitted, 800, "operation not permitted") \
  E(cudaErrorNotSupported, 801, "operation not supported") \
  E(cudaErrorSystemNotReady, 802, "system not yet initialized") \
  E(cudaErrorSystemDriverMismatch, 803, "system has unsupported display driver / cuda driver combination") \
  E(cudaErrorCompatNotSupportedOnDevice, 804, "forward compatibility was attempted on non supported HW") \
  E(cudaErrorMpsConnectionFailed, 805, "MPS client failed to connect to the MPS control daemon or the MPS server") \
  E(cudaErrorMpsRpcFailure, 806, "the remote procedural call between the MPS server and the MPS client failed") \
  E(cudaErrorMpsServerNotReady, 807, "MPS server is not ready to accept new MPS client requests") \
  E(cudaErrorMpsMaxClientsReached, 808, "the hardware resources required to create MPS client have been exhausted") \
  E(cudaErrorMpsMaxConnectionsReached, 809, "the hardware resources required to support device connections have been exhausted") \
  E(cudaErrorMpsClientTerminated, 810, "the MPS client has been terminated by the server") \
  E(cudaErrorCdpNotSupported, 811, "is using CUDA Dynamic Parallelism, but the current configuration, like MPS, does not support it") \
  E(cudaErrorCdpVersionMismatch, 812, "unsupported interaction between different versions of CUDA Dynamic Parallelism") \
  E(cudaErrorStreamCaptureUnsupported, 900, "operation not permitted when stream is capturing") \
  E(cudaErrorStreamCaptureInvalidated, 901, "operation failed due to a previous error during capture") \
  E(cudaErrorStreamCaptureMerge, 902, "operation would result in a merge of separate capture sequences") \
  E(cudaErrorStreamCaptureUnmatched, 903, "capture was not ended in the same stream as it began") \
  E(cudaErrorStreamCaptureUnjoined, 904, "capturing stream has unjoined work") \
  E(cudaErrorStreamCaptureIsolation, 905, "dependency created on uncaptured work in another stream") \
  E(cudaErrorStreamCaptureImplicit, 906, "operation would make the legacy stream depend on a capturing blocking stream") \
  E(cudaErrorCapturedEvent, 907, "operation not permitted on an event last recorded in a capturing stream") \
  E(cudaErrorStreamCaptureWrongThread, 908, "attempt to terminate a thread-local capture sequence from another thread") \
  E(cudaErrorTimeout, 909, "wait operation timed out") \
  E(cudaErrorGraphExecUpdateFailure, 910, "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update") \
  E(cudaErrorExternalDevice, 911, "an async error has occured in external entity outside of CUDA") \
  E(cudaErrorInvalidClusterSize, 912, "a kernel launch error has occurred due to cluster misconfiguration") \
  E(cudaErrorFunctionNotLoaded, 913, "the function handle is not loaded when calling an API that requires a loaded function") \
  E(cudaErrorInvalidResourceType, 914, "one or more resources passed in are not valid resource types for the operation") \
  E(cudaErrorInvalidResourceConfiguration, 915, "one or more resources are insufficient or non-applicable for the operation") \
  E(cudaErrorUnknown, 999, "unknown error")
