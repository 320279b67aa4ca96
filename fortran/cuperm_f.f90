!> Fortran 2008 bindings of cuperm (include/cuperm.h): module cuperm_f.
!>
!> Two layers (docs/fortran.md):
!>  * the raw C API, one bind(c) interface per function under the C name
!>    (cupermPlanTranspose, ...), taking type(c_ptr) handles, plans, device
!>    pointers and streams; perm there is 0-based, as in C;
!>  * convenience wrappers in snake_case (cuperm_transpose_plan, ...), which
!>    take Fortran's natural 1-BASED permutations, assumed-shape extents,
!>    optional strides (absent = dense), scalars alpha/beta by value, and
!>    optional streams as type(c_ptr) (absent = default stream; cuperm_stream
!>    converts an integer(c_intptr_t) stream such as CUDA Fortran's).
!>
!> Every function returns an integer(c_int) status (CUPERM_STATUS_*).
!> Fortran's column-major order is cuperm's: a Fortran array a(n1, n2, n3) has
!> extents [n1, n2, n3] and dense strides [1, n1, n1*n2].
module cuperm_f
  use, intrinsic :: iso_c_binding
  implicit none
  private

  public :: c_ptr, c_null_ptr, c_associated, c_loc, c_intptr_t, c_int64_t, c_int32_t, c_int, &
            c_size_t, c_double, c_float, c_float_complex, c_double_complex

  ! ---------------------------------------------------------------------------
  ! Constants: the same values as the C header's macros and enums.
  ! ---------------------------------------------------------------------------
  integer(c_int), parameter, public :: CUPERM_VERSION_MAJOR = 0
  integer(c_int), parameter, public :: CUPERM_VERSION_MINOR = 1
  integer(c_int), parameter, public :: CUPERM_VERSION_PATCH = 0
  integer(c_int), parameter, public :: CUPERM_VERSION = &
      CUPERM_VERSION_MAJOR * 10000 + CUPERM_VERSION_MINOR * 100 + CUPERM_VERSION_PATCH
  integer(c_int), parameter, public :: CUPERM_MAX_RANK = 32

  ! cupermStatus_t
  integer(c_int), parameter, public :: CUPERM_STATUS_SUCCESS = 0
  integer(c_int), parameter, public :: CUPERM_STATUS_INVALID_VALUE = 1
  integer(c_int), parameter, public :: CUPERM_STATUS_NOT_SUPPORTED = 2
  integer(c_int), parameter, public :: CUPERM_STATUS_ALLOC_FAILED = 3
  integer(c_int), parameter, public :: CUPERM_STATUS_CUDA_ERROR = 4
  integer(c_int), parameter, public :: CUPERM_STATUS_INTERNAL_ERROR = 5
  integer(c_int), parameter, public :: CUPERM_STATUS_ARCH_MISMATCH = 6
  integer(c_int), parameter, public :: CUPERM_STATUS_LIBRARY_ERROR = 7

  ! cupermDataType_t (numeric values equal cudaDataType_t's)
  integer(c_int), parameter, public :: CUPERM_R_16F = 2
  integer(c_int), parameter, public :: CUPERM_R_16BF = 14
  integer(c_int), parameter, public :: CUPERM_R_32F = 0
  integer(c_int), parameter, public :: CUPERM_R_64F = 1
  integer(c_int), parameter, public :: CUPERM_C_32F = 4
  integer(c_int), parameter, public :: CUPERM_C_64F = 5
  integer(c_int), parameter, public :: CUPERM_R_8I = 3
  integer(c_int), parameter, public :: CUPERM_R_8U = 8
  integer(c_int), parameter, public :: CUPERM_R_16I = 20
  integer(c_int), parameter, public :: CUPERM_R_32I = 10
  integer(c_int), parameter, public :: CUPERM_R_32U = 12
  integer(c_int), parameter, public :: CUPERM_R_64I = 24
  integer(c_int), parameter, public :: CUPERM_R_64U = 26

  ! cupermKernel_t
  integer(c_int), parameter, public :: CUPERM_KERNEL_COPY = 0
  integer(c_int), parameter, public :: CUPERM_KERNEL_TILED = 1
  integer(c_int), parameter, public :: CUPERM_KERNEL_ROWS = 2
  integer(c_int), parameter, public :: CUPERM_KERNEL_WHOLE_DIMS = 3
  integer(c_int), parameter, public :: CUPERM_KERNEL_ROW_TILES = 4
  integer(c_int), parameter, public :: CUPERM_CONTRACTION_TTGT = 0
  integer(c_int), parameter, public :: CUPERM_CONTRACTION_GETT = 1

  ! cupermOperator_t
  integer(c_int), parameter, public :: CUPERM_OP_IDENTITY = 0
  integer(c_int), parameter, public :: CUPERM_OP_NEGATE = 1
  integer(c_int), parameter, public :: CUPERM_OP_ABS = 2
  integer(c_int), parameter, public :: CUPERM_OP_RELU = 3
  integer(c_int), parameter, public :: CUPERM_OP_LEAKY_RELU = 4
  integer(c_int), parameter, public :: CUPERM_OP_ELU = 5
  integer(c_int), parameter, public :: CUPERM_OP_SIGMOID = 6
  integer(c_int), parameter, public :: CUPERM_OP_TANH = 7
  integer(c_int), parameter, public :: CUPERM_OP_EXP = 8
  integer(c_int), parameter, public :: CUPERM_OP_SQRT = 9
  integer(c_int), parameter, public :: CUPERM_OP_CONJ = 10

  ! cupermComputeType_t
  integer(c_int), parameter, public :: CUPERM_COMPUTE_DEFAULT = 0
  integer(c_int), parameter, public :: CUPERM_COMPUTE_16F = 1
  integer(c_int), parameter, public :: CUPERM_COMPUTE_32F = 2
  integer(c_int), parameter, public :: CUPERM_COMPUTE_64F = 3
  integer(c_int), parameter, public :: CUPERM_COMPUTE_32F_FAST_TF32 = 4
  integer(c_int), parameter, public :: CUPERM_COMPUTE_32F_FAST_16F = 5
  integer(c_int), parameter, public :: CUPERM_COMPUTE_32F_FAST_16BF = 6

  ! cupermPlanMode_t
  integer(c_int), parameter, public :: CUPERM_PLAN_MODEL = 0
  integer(c_int), parameter, public :: CUPERM_PLAN_MEASURE = 1

  ! cupermContractionAlgo_t
  integer(c_int), parameter, public :: CUPERM_ALGO_DEFAULT = 0
  integer(c_int), parameter, public :: CUPERM_ALGO_TTGT = 1
  integer(c_int), parameter, public :: CUPERM_ALGO_GETT = 2

  ! ---------------------------------------------------------------------------
  ! Structs: bind(c) mirrors (tests/test_fortran_api checks sizes and offsets).
  ! Character pointers (kernelName, description) are type(c_ptr): read them
  ! with cuperm_c_string.
  ! ---------------------------------------------------------------------------
  type, bind(c), public :: cupermPlanInfo_t
    integer(c_int) :: kernel = 0
    type(c_ptr) :: kernelName = c_null_ptr
    integer(c_int) :: fusedRank = 0
    integer(c_int64_t) :: volume = 0
    integer(c_int64_t) :: tileA = 0
    integer(c_int64_t) :: tileB = 0
    integer(c_int) :: threadsPerBlock = 0
    integer(c_int64_t) :: blocks = 0
    real(c_double) :: predictedSeconds = 0
    integer(c_int) :: measured = 0
    integer(c_int) :: movedElementBytes = 0
    type(c_ptr) :: tuning = c_null_ptr
  end type

  !> One contraction operand as C sees it: modes, extents and strides are C
  !> pointers (c_loc of integer(c_int32_t)/integer(c_int64_t) arrays, or
  !> c_null_ptr for dense strides). The wrappers build it from a cuperm_tensor_t.
  type, bind(c), public :: cupermTensorDescriptor_t
    integer(c_int) :: rank = 0
    type(c_ptr) :: modes = c_null_ptr
    type(c_ptr) :: extents = c_null_ptr
    type(c_ptr) :: strides = c_null_ptr
    integer(c_int) :: type = CUPERM_R_32F
    integer(c_int) :: op = CUPERM_OP_IDENTITY
    real(c_double) :: opParam = 0
  end type

  type, bind(c), public :: cupermContractionInfo_t
    integer(c_int64_t) :: m = 0, n = 0, k = 0, batch = 0
    integer(c_int64_t) :: calls = 0
    integer(c_int) :: swapped = 0
    character(kind=c_char) :: opFirst = ' ', opSecond = ' '
    integer(c_int) :: transposedA = 0, transposedB = 0
    integer(c_int) :: transposedD = 0
    integer(c_int) :: elementwiseKernels = 0
    real(c_double) :: flops = 0
    real(c_double) :: predictedTransposeSeconds = 0
    real(c_double) :: predictedGemmSeconds = 0
    integer(c_size_t) :: workspaceBytes = 0
    type(c_ptr) :: description = c_null_ptr
    integer(c_int) :: measured = 0
    real(c_double) :: measuredSeconds = 0
    type(c_ptr) :: tuning = c_null_ptr
    integer(c_int) :: kind = CUPERM_CONTRACTION_TTGT
  end type

  !> A contraction operand on the Fortran side: owns copies of its modes,
  !> extents and (optional) strides. Make one with cuperm_tensor(...).
  type, public :: cuperm_tensor_t
    integer(c_int32_t), allocatable :: modes(:)
    integer(c_int64_t), allocatable :: extents(:)
    integer(c_int64_t), allocatable :: strides(:)   ! unallocated: dense column-major
    integer(c_int) :: type = CUPERM_R_32F
    integer(c_int) :: op = CUPERM_OP_IDENTITY
    real(c_double) :: op_param = 0
  end type

  ! ---------------------------------------------------------------------------
  ! The raw C API (names and argument order as in include/cuperm.h).
  ! ---------------------------------------------------------------------------
  public :: cupermGetErrorString, cupermGetLastErrorMessage, cupermGetVersion, cupermDataTypeSize
  public :: cupermCreate, cupermDestroy, cupermHandleWritePlanCache, cupermHandleReadPlanCache
  public :: cupermPlanTranspose, cupermPlanTransposeOp, cupermExecute, cupermPlanDestroy, cupermPlanTransposeMeasure
  public :: cupermPredictTransposeTime, cupermPlanGetInfo
  public :: cupermPlanContraction, cupermPlanContractionAlgo, cupermContractionGetWorkspaceSize, cupermContract
  public :: cupermContractionPlanDestroy, cupermContractionPlanGetInfo

  interface
    function cupermGetErrorString(status) bind(c, name='cupermGetErrorString') result(s)
      import :: c_int, c_ptr
      integer(c_int), value :: status
      type(c_ptr) :: s
    end function
    function cupermGetLastErrorMessage() bind(c, name='cupermGetLastErrorMessage') result(s)
      import :: c_ptr
      type(c_ptr) :: s
    end function
    function cupermGetVersion() bind(c, name='cupermGetVersion') result(v)
      import :: c_int
      integer(c_int) :: v
    end function
    function cupermDataTypeSize(type) bind(c, name='cupermDataTypeSize') result(n)
      import :: c_int, c_size_t
      integer(c_int), value :: type
      integer(c_size_t) :: n
    end function

    function cupermCreate(handle) bind(c, name='cupermCreate') result(st)
      import :: c_int, c_ptr
      type(c_ptr), intent(out) :: handle
      integer(c_int) :: st
    end function
    function cupermDestroy(handle) bind(c, name='cupermDestroy') result(st)
      import :: c_int, c_ptr
      type(c_ptr), value :: handle
      integer(c_int) :: st
    end function

    !> path: NUL-terminated (cuperm_handle_write_plan_cache adds the NUL).
    function cupermHandleWritePlanCache(handle, path, entriesWritten) bind(c, name='cupermHandleWritePlanCache') &
        result(st)
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: handle
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int), intent(out) :: entriesWritten
      integer(c_int) :: st
    end function

    function cupermHandleReadPlanCache(handle, path, entriesRead) bind(c, name='cupermHandleReadPlanCache') &
        result(st)
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: handle
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int), intent(out) :: entriesRead
      integer(c_int) :: st
    end function

    !> perm is 0-based here (C); inStrides/outStrides: c_loc(array) or c_null_ptr.
    function cupermPlanTranspose(handle, plan, rank, extents, perm, type, inStrides, outStrides) &
        bind(c, name='cupermPlanTranspose') result(st)
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: handle
      type(c_ptr), intent(out) :: plan
      integer(c_int), value :: rank
      integer(c_int64_t), intent(in) :: extents(*)
      integer(c_int), intent(in) :: perm(*)
      integer(c_int), value :: type
      type(c_ptr), value :: inStrides, outStrides
      integer(c_int) :: st
    end function
    !> out = alpha * opIn(perm(in)) + beta * out (CUPERM_OP_CONJ: conjugate transpose).
    function cupermPlanTransposeOp(handle, plan, rank, extents, perm, type, inStrides, outStrides, opIn, opParam) &
        bind(c, name='cupermPlanTransposeOp') result(st)
      import :: c_int, c_ptr, c_int64_t, c_double
      type(c_ptr), value :: handle
      type(c_ptr), intent(out) :: plan
      integer(c_int), value :: rank
      integer(c_int64_t), intent(in) :: extents(*)
      integer(c_int), intent(in) :: perm(*)
      integer(c_int), value :: type
      type(c_ptr), value :: inStrides, outStrides
      integer(c_int), value :: opIn
      real(c_double), value :: opParam
      integer(c_int) :: st
    end function
    !> alpha, beta: c_loc of host scalars; in, out: device pointers.
    function cupermExecute(plan, alpha, in, beta, out, stream) bind(c, name='cupermExecute') result(st)
      import :: c_int, c_ptr
      type(c_ptr), value :: plan, alpha, in, beta, out, stream
      integer(c_int) :: st
    end function
    function cupermPlanDestroy(plan) bind(c, name='cupermPlanDestroy') result(st)
      import :: c_int, c_ptr
      type(c_ptr), value :: plan
      integer(c_int) :: st
    end function
    function cupermPlanTransposeMeasure(handle, plan, rank, extents, perm, type, inStrides, &
        outStrides, in, out, stream) bind(c, name='cupermPlanTransposeMeasure') result(st)
      import :: c_int, c_ptr, c_int64_t
      type(c_ptr), value :: handle
      type(c_ptr), intent(out) :: plan
      integer(c_int), value :: rank
      integer(c_int64_t), intent(in) :: extents(*)
      integer(c_int), intent(in) :: perm(*)
      integer(c_int), value :: type
      type(c_ptr), value :: inStrides, outStrides, in, out, stream
      integer(c_int) :: st
    end function
    function cupermPredictTransposeTime(handle, rank, extents, perm, type, inStrides, outStrides, &
        seconds) bind(c, name='cupermPredictTransposeTime') result(st)
      import :: c_int, c_ptr, c_int64_t, c_double
      type(c_ptr), value :: handle
      integer(c_int), value :: rank
      integer(c_int64_t), intent(in) :: extents(*)
      integer(c_int), intent(in) :: perm(*)
      integer(c_int), value :: type
      type(c_ptr), value :: inStrides, outStrides
      real(c_double), intent(out) :: seconds
      integer(c_int) :: st
    end function
    function cupermPlanGetInfo(plan, info) bind(c, name='cupermPlanGetInfo') result(st)
      import :: c_int, c_ptr, cupermPlanInfo_t
      type(c_ptr), value :: plan
      type(cupermPlanInfo_t), intent(out) :: info
      integer(c_int) :: st
    end function

    function cupermPlanContraction(handle, plan, A, B, C, D, compute, mode) &
        bind(c, name='cupermPlanContraction') result(st)
      import :: c_int, c_ptr, cupermTensorDescriptor_t
      type(c_ptr), value :: handle
      type(c_ptr), intent(out) :: plan
      type(cupermTensorDescriptor_t), intent(in) :: A, B, C, D
      integer(c_int), value :: compute, mode
      integer(c_int) :: st
    end function
    function cupermPlanContractionAlgo(handle, plan, A, B, C, D, compute, mode, algo) &
        bind(c, name='cupermPlanContractionAlgo') result(st)
      import :: c_int, c_ptr, cupermTensorDescriptor_t
      type(c_ptr), value :: handle
      type(c_ptr), intent(out) :: plan
      type(cupermTensorDescriptor_t), intent(in) :: A, B, C, D
      integer(c_int), value :: compute, mode, algo
      integer(c_int) :: st
    end function
    function cupermContractionGetWorkspaceSize(plan, bytes) &
        bind(c, name='cupermContractionGetWorkspaceSize') result(st)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: plan
      integer(c_size_t), intent(out) :: bytes
      integer(c_int) :: st
    end function
    function cupermContract(plan, alpha, A, B, beta, C, D, workspace, workspaceBytes, stream) &
        bind(c, name='cupermContract') result(st)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: plan, alpha, A, B, beta, C, D, workspace
      integer(c_size_t), value :: workspaceBytes
      type(c_ptr), value :: stream
      integer(c_int) :: st
    end function
    function cupermContractionPlanDestroy(plan) bind(c, name='cupermContractionPlanDestroy') result(st)
      import :: c_int, c_ptr
      type(c_ptr), value :: plan
      integer(c_int) :: st
    end function
    function cupermContractionPlanGetInfo(plan, info) &
        bind(c, name='cupermContractionPlanGetInfo') result(st)
      import :: c_int, c_ptr, cupermContractionInfo_t
      type(c_ptr), value :: plan
      type(cupermContractionInfo_t), intent(out) :: info
      integer(c_int) :: st
    end function
  end interface

  ! Helpers in C (fortran/cuperm_f_error.c) and libc.
  interface
    function c_strlen(s) bind(c, name='strlen') result(n)
      import :: c_ptr, c_size_t
      type(c_ptr), value :: s
      integer(c_size_t) :: n
    end function
    subroutine cuperm_f_set_error(msg, len) bind(c, name='cuperm_f_set_error')
      import :: c_char, c_size_t
      character(kind=c_char), intent(in) :: msg(*)
      integer(c_size_t), value :: len
    end subroutine
    subroutine cuperm_f_clear_error() bind(c, name='cuperm_f_clear_error')
    end subroutine
    function cuperm_f_error() bind(c, name='cuperm_f_error') result(p)
      import :: c_ptr
      type(c_ptr) :: p
    end function
  end interface

  ! ---------------------------------------------------------------------------
  ! Convenience wrappers.
  ! ---------------------------------------------------------------------------
  public :: cuperm_c_string, cuperm_stream, cuperm_get_error_string, cuperm_get_last_error_message
  public :: cuperm_get_version, cuperm_data_type_size, cuperm_create, cuperm_destroy
  public :: cuperm_handle_write_plan_cache, cuperm_handle_read_plan_cache
  public :: cuperm_transpose_plan, cuperm_transpose_plan_measure, cuperm_predict_transpose_time
  public :: cuperm_execute, cuperm_plan_destroy, cuperm_plan_get_info
  public :: cuperm_tensor, cuperm_contraction_plan, cuperm_contraction_workspace_size
  public :: cuperm_contract, cuperm_contraction_plan_destroy, cuperm_contraction_plan_get_info

  !> cuperm_transpose_plan(handle, plan, extents, perm, type [, in_strides, out_strides])
  !> extents and strides: integer(c_int64_t) or default integer arrays.
  interface cuperm_transpose_plan
    module procedure transpose_plan_i8, transpose_plan_i4
  end interface
  !> cuperm_tensor(modes, extents, type [, strides, op, op_param]); modes: an
  !> integer array of labels or a character string, one label per character.
  interface cuperm_tensor
    module procedure tensor_int_modes, tensor_char_modes
  end interface

  !> Holds a host scalar (alpha, beta) for the duration of a call.
  type :: scalar_box
    real(c_float) :: f = 0
    real(c_double) :: d = 0
    complex(c_float_complex) :: cf = 0
    complex(c_double_complex) :: cd = 0
    integer(c_int8_t) :: i8 = 0
    integer(c_int16_t) :: i16 = 0
    integer(c_int32_t) :: i32 = 0
    integer(c_int64_t) :: i64 = 0
  end type

contains

  ! ---- strings and errors ----------------------------------------------------

  !> Copies a NUL-terminated C string into a Fortran string; "" for c_null_ptr.
  function cuperm_c_string(p) result(s)
    type(c_ptr), intent(in) :: p
    character(len=:), allocatable :: s
    character(kind=c_char), pointer :: chars(:)
    integer :: i, n
    if (.not. c_associated(p)) then
      s = ''
      return
    end if
    n = int(c_strlen(p))
    allocate(character(len=n) :: s)
    if (n == 0) return
    call c_f_pointer(p, chars, [n])
    do i = 1, n
      s(i:i) = chars(i)
    end do
  end function

  !> The status name, e.g. "CUPERM_STATUS_INVALID_VALUE".
  function cuperm_get_error_string(status) result(s)
    integer(c_int), intent(in) :: status
    character(len=:), allocatable :: s
    s = cuperm_c_string(cupermGetErrorString(status))
  end function

  !> This thread's last failure: the library's message, or the wrappers' own
  !> when a wrapper rejected its arguments (1-based wording) after it.
  function cuperm_get_last_error_message() result(s)
    character(len=:), allocatable :: s
    type(c_ptr) :: p
    p = cuperm_f_error()
    if (.not. c_associated(p)) p = cupermGetLastErrorMessage()
    s = cuperm_c_string(p)
  end function

  !> Records a failure found by a wrapper; returns status.
  function fail(status, msg) result(st)
    integer(c_int), intent(in) :: status
    character(len=*), intent(in) :: msg
    integer(c_int) :: st
    call cuperm_f_set_error(to_c(msg), int(len(msg), c_size_t))
    st = status
  end function

  !> A Fortran string as a NUL-terminated C string.
  function to_c(s) result(buf)
    character(len=*), intent(in) :: s
    character(kind=c_char) :: buf(len(s) + 1)
    integer :: i
    do i = 1, len(s)
      buf(i) = s(i:i)
    end do
    buf(len(s) + 1) = c_null_char
  end function

  !> The status of a library call: a failure there supersedes a wrapper's message.
  function lib(status) result(st)
    integer(c_int), intent(in) :: status
    integer(c_int) :: st
    if (status /= CUPERM_STATUS_SUCCESS) call cuperm_f_clear_error()
    st = status
  end function

  function itoa(i) result(s)
    integer(c_int64_t), intent(in) :: i
    character(len=:), allocatable :: s
    character(len=24) :: buf
    write(buf, '(i0)') i
    s = trim(buf)
  end function

  function cuperm_get_version() result(v)
    integer(c_int) :: v
    v = cupermGetVersion()
  end function

  !> Bytes per element of a CUPERM_* data type, 0 for an unknown one.
  function cuperm_data_type_size(type) result(n)
    integer(c_int), intent(in) :: type
    integer(c_size_t) :: n
    n = cupermDataTypeSize(type)
  end function

  ! ---- handle ------------------------------------------------------------------

  function cuperm_create(handle) result(st)
    type(c_ptr), intent(out) :: handle
    integer(c_int) :: st
    st = lib(cupermCreate(handle))
  end function

  function cuperm_destroy(handle) result(st)
    type(c_ptr), intent(in) :: handle
    integer(c_int) :: st
    st = lib(cupermDestroy(handle))
  end function

  !> Saves the handle's measured planning decisions to the file path (cupermHandleWritePlanCache);
  !> entries: how many.
  function cuperm_handle_write_plan_cache(handle, path, entries) result(st)
    type(c_ptr), intent(in) :: handle
    character(len=*), intent(in) :: path
    integer, intent(out), optional :: entries
    integer(c_int) :: st, n
    n = 0
    st = lib(cupermHandleWritePlanCache(handle, to_c(path), n))
    if (present(entries)) entries = int(n)
  end function

  !> Adds the decisions saved in path to the handle (cupermHandleReadPlanCache); entries: how
  !> many. A file of another build or device, or a damaged one, adds none: success, entries = 0,
  !> and cuperm_get_last_error_message() says why.
  function cuperm_handle_read_plan_cache(handle, path, entries) result(st)
    type(c_ptr), intent(in) :: handle
    character(len=*), intent(in) :: path
    integer, intent(out), optional :: entries
    integer(c_int) :: st, n
    n = 0
    call cuperm_f_clear_error() ! the library's message (a warning on success) is the one to read
    st = lib(cupermHandleReadPlanCache(handle, to_c(path), n))
    if (present(entries)) entries = int(n)
  end function

  ! ---- argument conversion -------------------------------------------------------

  !> Checks rank and a 1-based perm; fills the 0-based C perm.
  function convert_perm(rank, perm, cperm) result(st)
    integer, intent(in) :: rank
    integer, intent(in) :: perm(:)
    integer(c_int), intent(out) :: cperm(CUPERM_MAX_RANK)
    integer(c_int) :: st
    logical :: seen(CUPERM_MAX_RANK)
    integer :: r
    cperm = 0
    if (rank < 1 .or. rank > CUPERM_MAX_RANK) then
      st = fail(CUPERM_STATUS_INVALID_VALUE, 'rank (size(extents)) is ' // itoa(int(rank, c_int64_t)) // &
                '; it must be 1 .. CUPERM_MAX_RANK (32)')
      return
    end if
    if (size(perm) /= rank) then
      st = fail(CUPERM_STATUS_INVALID_VALUE, 'size(perm) is ' // itoa(int(size(perm), c_int64_t)) // &
                ' but size(extents) is ' // itoa(int(rank, c_int64_t)))
      return
    end if
    seen = .false.
    do r = 1, rank
      if (perm(r) < 1 .or. perm(r) > rank) then
        st = fail(CUPERM_STATUS_INVALID_VALUE, 'perm(' // itoa(int(r, c_int64_t)) // ') is ' // &
                  itoa(int(perm(r), c_int64_t)) // '; the Fortran wrappers take a 1-based ' // &
                  'permutation of 1 .. ' // itoa(int(rank, c_int64_t)))
        return
      end if
      if (seen(perm(r))) then
        st = fail(CUPERM_STATUS_INVALID_VALUE, 'perm(' // itoa(int(r, c_int64_t)) // ') = ' // &
                  itoa(int(perm(r), c_int64_t)) // ' repeats a dimension; perm must be a ' // &
                  '1-based permutation of 1 .. ' // itoa(int(rank, c_int64_t)))
        return
      end if
      seen(perm(r)) = .true.
      cperm(r) = int(perm(r) - 1, c_int)
    end do
    st = CUPERM_STATUS_SUCCESS
  end function

  !> Copies optional strides into buf and points p at them (c_null_ptr: dense).
  function convert_strides(name, rank, strides, buf, p) result(st)
    character(len=*), intent(in) :: name
    integer, intent(in) :: rank
    integer(c_int64_t), intent(in), optional :: strides(:)
    integer(c_int64_t), intent(inout), target :: buf(CUPERM_MAX_RANK)
    type(c_ptr), intent(out) :: p
    integer(c_int) :: st
    p = c_null_ptr
    st = CUPERM_STATUS_SUCCESS
    if (.not. present(strides)) return
    if (size(strides) /= rank) then
      st = fail(CUPERM_STATUS_INVALID_VALUE, 'size(' // name // ') is ' // &
                itoa(int(size(strides), c_int64_t)) // ' but size(extents) is ' // &
                itoa(int(rank, c_int64_t)))
      return
    end if
    buf(1:rank) = strides
    p = c_loc(buf)
  end function

  !> A C pointer to a host scalar (a copy kept in box), or the c_ptr itself.
  function scalar_ptr(name, x, box, p) result(st)
    character(len=*), intent(in) :: name
    class(*), intent(in) :: x
    type(scalar_box), intent(inout), target :: box
    type(c_ptr), intent(out) :: p
    integer(c_int) :: st
    st = CUPERM_STATUS_SUCCESS
    p = c_null_ptr
    select type (x)
    type is (real(c_float))
      box%f = x
      p = c_loc(box%f)
    type is (real(c_double))
      box%d = x
      p = c_loc(box%d)
    type is (complex(c_float_complex))
      box%cf = x
      p = c_loc(box%cf)
    type is (complex(c_double_complex))
      box%cd = x
      p = c_loc(box%cd)
    type is (integer(c_int8_t))
      box%i8 = x
      p = c_loc(box%i8)
    type is (integer(c_int16_t))
      box%i16 = x
      p = c_loc(box%i16)
    type is (integer(c_int32_t))
      box%i32 = x
      p = c_loc(box%i32)
    type is (integer(c_int64_t))
      box%i64 = x
      p = c_loc(box%i64)
    class default
      st = fail(CUPERM_STATUS_INVALID_VALUE, name // ' must be a real, complex or integer ' // &
                'scalar of an interoperable kind (use the raw cupermExecute/cupermContract ' // &
                'to pass a type(c_ptr))')
    end select
  end function

  !> A cudaStream_t held in an integer(c_intptr_t) (CUDA Fortran's
  !> integer(cuda_stream_kind)) as the type(c_ptr) the wrappers take.
  function cuperm_stream(stream) result(p)
    integer(c_intptr_t), intent(in) :: stream
    type(c_ptr) :: p
    p = transfer(stream, p)
  end function

  !> The optional stream argument: absent means the default stream.
  function stream_ptr(stream) result(p)
    type(c_ptr), intent(in), optional :: stream
    type(c_ptr) :: p
    p = c_null_ptr
    if (present(stream)) p = stream
  end function

  ! ---- transposes ------------------------------------------------------------------

  !> Plans out = alpha * perm(in) + beta * out with a 1-BASED perm:
  !> output dimension r is input dimension perm(r), i.e.
  !> out_extent(r) = extents(perm(r)). For a(n1,n2) -> b(n2,n1): perm = [2, 1].
  !> in_strides/out_strides: optional, in elements (absent: dense column-major).
  function transpose_plan_i8(handle, plan, extents, perm, type, in_strides, out_strides) result(st)
    type(c_ptr), intent(in) :: handle
    type(c_ptr), intent(out) :: plan
    integer(c_int64_t), intent(in) :: extents(:)
    integer, intent(in) :: perm(:)
    integer(c_int), intent(in) :: type
    integer(c_int64_t), intent(in), optional :: in_strides(:), out_strides(:)
    integer(c_int) :: st
    integer(c_int) :: cperm(CUPERM_MAX_RANK)
    integer(c_int64_t), target :: ibuf(CUPERM_MAX_RANK), obuf(CUPERM_MAX_RANK)
    type(c_ptr) :: pin, pout
    plan = c_null_ptr
    st = prepare_transpose(extents, perm, in_strides, out_strides, cperm, ibuf, obuf, pin, pout)
    if (st /= CUPERM_STATUS_SUCCESS) return
    st = lib(cupermPlanTranspose(handle, plan, int(size(extents), c_int), extents, cperm, type, &
                                 pin, pout))
  end function

  function transpose_plan_i4(handle, plan, extents, perm, type, in_strides, out_strides) result(st)
    type(c_ptr), intent(in) :: handle
    type(c_ptr), intent(out) :: plan
    integer, intent(in) :: extents(:)
    integer, intent(in) :: perm(:)
    integer(c_int), intent(in) :: type
    integer, intent(in), optional :: in_strides(:), out_strides(:)
    integer(c_int) :: st
    integer(c_int64_t), allocatable :: is(:), os(:)
    if (present(in_strides)) is = int(in_strides, c_int64_t)
    if (present(out_strides)) os = int(out_strides, c_int64_t)
    ! an unallocated allocatable passed to an optional dummy counts as absent
    st = transpose_plan_i8(handle, plan, int(extents, c_int64_t), perm, type, is, os)
  end function

  function prepare_transpose(extents, perm, in_strides, out_strides, cperm, ibuf, obuf, pin, pout) &
      result(st)
    integer(c_int64_t), intent(in) :: extents(:)
    integer, intent(in) :: perm(:)
    integer(c_int64_t), intent(in), optional :: in_strides(:), out_strides(:)
    integer(c_int), intent(out) :: cperm(CUPERM_MAX_RANK)
    integer(c_int64_t), intent(inout), target :: ibuf(CUPERM_MAX_RANK), obuf(CUPERM_MAX_RANK)
    type(c_ptr), intent(out) :: pin, pout
    integer(c_int) :: st
    pin = c_null_ptr
    pout = c_null_ptr
    st = convert_perm(size(extents), perm, cperm)
    if (st /= CUPERM_STATUS_SUCCESS) return
    st = convert_strides('in_strides', size(extents), in_strides, ibuf, pin)
    if (st /= CUPERM_STATUS_SUCCESS) return
    st = convert_strides('out_strides', size(extents), out_strides, obuf, pout)
  end function

  !> Like cuperm_transpose_plan, timing candidates on the device buffers in and
  !> out (overwritten) on stream (optional; cuperm_stream converts an integer(c_intptr_t)).
  function cuperm_transpose_plan_measure(handle, plan, extents, perm, type, in, out, &
                                         in_strides, out_strides, stream) result(st)
    type(c_ptr), intent(in) :: handle
    type(c_ptr), intent(out) :: plan
    integer(c_int64_t), intent(in) :: extents(:)
    integer, intent(in) :: perm(:)
    integer(c_int), intent(in) :: type
    type(c_ptr), intent(in) :: in, out
    integer(c_int64_t), intent(in), optional :: in_strides(:), out_strides(:)
    type(c_ptr), intent(in), optional :: stream
    integer(c_int) :: st
    integer(c_int) :: cperm(CUPERM_MAX_RANK)
    integer(c_int64_t), target :: ibuf(CUPERM_MAX_RANK), obuf(CUPERM_MAX_RANK)
    type(c_ptr) :: pin, pout, s
    plan = c_null_ptr
    st = prepare_transpose(extents, perm, in_strides, out_strides, cperm, ibuf, obuf, pin, pout)
    if (st /= CUPERM_STATUS_SUCCESS) return
    s = stream_ptr(stream)
    st = lib(cupermPlanTransposeMeasure(handle, plan, int(size(extents), c_int), extents, cperm, &
                                        type, pin, pout, in, out, s))
  end function

  !> The model's predicted time in seconds (1-based perm, as cuperm_transpose_plan).
  function cuperm_predict_transpose_time(handle, extents, perm, type, seconds, in_strides, &
                                         out_strides) result(st)
    type(c_ptr), intent(in) :: handle
    integer(c_int64_t), intent(in) :: extents(:)
    integer, intent(in) :: perm(:)
    integer(c_int), intent(in) :: type
    real(c_double), intent(out) :: seconds
    integer(c_int64_t), intent(in), optional :: in_strides(:), out_strides(:)
    integer(c_int) :: st
    integer(c_int) :: cperm(CUPERM_MAX_RANK)
    integer(c_int64_t), target :: ibuf(CUPERM_MAX_RANK), obuf(CUPERM_MAX_RANK)
    type(c_ptr) :: pin, pout
    seconds = 0
    st = prepare_transpose(extents, perm, in_strides, out_strides, cperm, ibuf, obuf, pin, pout)
    if (st /= CUPERM_STATUS_SUCCESS) return
    st = lib(cupermPredictTransposeTime(handle, int(size(extents), c_int), extents, cperm, type, &
                                        pin, pout, seconds))
  end function

  !> out = alpha * perm(in) + beta * out, asynchronously on stream.
  !> alpha, beta: host scalars of the kind the plan's type needs (real(c_float)
  !> for R_32F, R_16F and R_16BF; real(c_double) for R_64F; complex(c_float_complex)
  !> for C_32F; ...; integer(c_int8_t) for R_8I and R_8U).
  !> in, out: device pointers. stream: optional type(c_ptr) (absent: the default
  !> stream; cuperm_stream(i) converts an integer(c_intptr_t) stream).
  function cuperm_execute(plan, alpha, in, beta, out, stream) result(st)
    type(c_ptr), intent(in) :: plan
    class(*), intent(in) :: alpha, beta
    type(c_ptr), intent(in) :: in, out
    type(c_ptr), intent(in), optional :: stream
    integer(c_int) :: st
    type(scalar_box), target :: abox, bbox
    type(c_ptr) :: pa, pb, s
    st = scalar_ptr('alpha', alpha, abox, pa)
    if (st /= CUPERM_STATUS_SUCCESS) return
    st = scalar_ptr('beta', beta, bbox, pb)
    if (st /= CUPERM_STATUS_SUCCESS) return
    s = stream_ptr(stream)
    st = lib(cupermExecute(plan, pa, in, pb, out, s))
  end function

  function cuperm_plan_destroy(plan) result(st)
    type(c_ptr), intent(in) :: plan
    integer(c_int) :: st
    st = lib(cupermPlanDestroy(plan))
  end function

  !> info%kernelName: cuperm_c_string(info%kernelName).
  function cuperm_plan_get_info(plan, info) result(st)
    type(c_ptr), intent(in) :: plan
    type(cupermPlanInfo_t), intent(out) :: info
    integer(c_int) :: st
    st = lib(cupermPlanGetInfo(plan, info))
  end function

  ! ---- contractions ------------------------------------------------------------------

  !> A contraction operand: modes (labels; any integers, distinct within the
  !> tensor), extents in Fortran order (extents(1) is the stride-1 dimension),
  !> type (CUPERM_R_64F, ...), optional strides (absent: dense column-major),
  !> op (default CUPERM_OP_IDENTITY) and op_param.
  function tensor_int_modes(modes, extents, type, strides, op, op_param) result(t)
    integer, intent(in) :: modes(:)
    integer(c_int64_t), intent(in) :: extents(:)
    integer(c_int), intent(in) :: type
    integer(c_int64_t), intent(in), optional :: strides(:)
    integer(c_int), intent(in), optional :: op
    real(c_double), intent(in), optional :: op_param
    type(cuperm_tensor_t) :: t
    allocate(t%modes(size(modes)), t%extents(size(extents)))
    t%modes(:) = int(modes, c_int32_t)
    t%extents(:) = extents
    if (present(strides)) then
      allocate(t%strides(size(strides)))
      t%strides(:) = strides
    end if
    t%type = type
    if (present(op)) t%op = op
    if (present(op_param)) t%op_param = op_param
  end function

  !> As tensor_int_modes with one label per character: cuperm_tensor('ik', ...).
  function tensor_char_modes(modes, extents, type, strides, op, op_param) result(t)
    character(len=*), intent(in) :: modes
    integer(c_int64_t), intent(in) :: extents(:)
    integer(c_int), intent(in) :: type
    integer(c_int64_t), intent(in), optional :: strides(:)
    integer(c_int), intent(in), optional :: op
    real(c_double), intent(in), optional :: op_param
    type(cuperm_tensor_t) :: t
    integer :: labels(len(modes)), i
    do i = 1, len(modes)
      labels(i) = ichar(modes(i:i))
    end do
    t = tensor_int_modes(labels, extents, type, strides, op, op_param)
  end function

  !> The C descriptor of t; its pointers are valid while t lives unchanged.
  function descriptor(name, t, d) result(st)
    character(len=*), intent(in) :: name
    type(cuperm_tensor_t), intent(in), target :: t
    type(cupermTensorDescriptor_t), intent(out) :: d
    integer(c_int) :: st
    integer :: rank
    st = CUPERM_STATUS_SUCCESS
    if (.not. allocated(t%modes) .or. .not. allocated(t%extents)) then
      st = fail(CUPERM_STATUS_INVALID_VALUE, name // ' has no modes or extents: make it with ' // &
                'cuperm_tensor(modes, extents, type)')
      return
    end if
    rank = size(t%modes)
    if (size(t%extents) /= rank) then
      st = fail(CUPERM_STATUS_INVALID_VALUE, name // ': size(extents) is ' // &
                itoa(int(size(t%extents), c_int64_t)) // ' but it has ' // &
                itoa(int(rank, c_int64_t)) // ' modes')
      return
    end if
    if (allocated(t%strides)) then
      if (size(t%strides) /= rank) then
        st = fail(CUPERM_STATUS_INVALID_VALUE, name // ': size(strides) is ' // &
                  itoa(int(size(t%strides), c_int64_t)) // ' but it has ' // &
                  itoa(int(rank, c_int64_t)) // ' modes')
        return
      end if
    end if
    d%rank = int(rank, c_int)
    if (rank > 0) then
      d%modes = c_loc(t%modes)
      d%extents = c_loc(t%extents)
      if (allocated(t%strides)) d%strides = c_loc(t%strides)
    end if
    d%type = t%type
    d%op = t%op
    d%opParam = t%op_param
  end function

  !> Plans D = opD(alpha * sum opA(A) * opB(B) + beta * opC(C)) (einsum style:
  !> modes are matched by label). compute: default CUPERM_COMPUTE_DEFAULT;
  !> mode: default CUPERM_PLAN_MODEL; algo (the kinds of plan allowed): default
  !> CUPERM_ALGO_DEFAULT.
  function cuperm_contraction_plan(handle, plan, A, B, C, D, compute, mode, algo) result(st)
    type(c_ptr), intent(in) :: handle
    type(c_ptr), intent(out) :: plan
    type(cuperm_tensor_t), intent(in), target :: A, B, C, D
    integer(c_int), intent(in), optional :: compute, mode, algo
    integer(c_int) :: st
    type(cupermTensorDescriptor_t) :: dA, dB, dC, dD
    integer(c_int) :: cmp, md, alg
    plan = c_null_ptr
    cmp = CUPERM_COMPUTE_DEFAULT
    if (present(compute)) cmp = compute
    md = CUPERM_PLAN_MODEL
    if (present(mode)) md = mode
    alg = CUPERM_ALGO_DEFAULT
    if (present(algo)) alg = algo
    st = descriptor('A', A, dA)
    if (st == CUPERM_STATUS_SUCCESS) st = descriptor('B', B, dB)
    if (st == CUPERM_STATUS_SUCCESS) st = descriptor('C', C, dC)
    if (st == CUPERM_STATUS_SUCCESS) st = descriptor('D', D, dD)
    if (st /= CUPERM_STATUS_SUCCESS) return
    st = lib(cupermPlanContractionAlgo(handle, plan, dA, dB, dC, dD, cmp, md, alg))
  end function

  function cuperm_contraction_workspace_size(plan, bytes) result(st)
    type(c_ptr), intent(in) :: plan
    integer(c_size_t), intent(out) :: bytes
    integer(c_int) :: st
    bytes = 0
    st = lib(cupermContractionGetWorkspaceSize(plan, bytes))
  end function

  !> Runs a contraction plan asynchronously. alpha, beta: host scalars
  !> (real(c_double) for R_64F D, complex(c_double_complex) for C_64F,
  !> complex(c_float_complex) for C_32F, real(c_float) otherwise).
  !> A, B, C, D: device pointers (C may be D). workspace: optional device
  !> pointer (absent: taken from the device's memory pool); workspace_bytes
  !> defaults to cuperm_contraction_workspace_size. stream: optional.
  function cuperm_contract(plan, alpha, A, B, beta, C, D, workspace, workspace_bytes, stream) &
      result(st)
    type(c_ptr), intent(in) :: plan
    class(*), intent(in) :: alpha, beta
    type(c_ptr), intent(in) :: A, B, C, D
    type(c_ptr), intent(in), optional :: workspace
    integer(c_size_t), intent(in), optional :: workspace_bytes
    type(c_ptr), intent(in), optional :: stream
    integer(c_int) :: st
    type(scalar_box), target :: abox, bbox
    type(c_ptr) :: pa, pb, s, ws
    integer(c_size_t) :: wsb
    st = scalar_ptr('alpha', alpha, abox, pa)
    if (st /= CUPERM_STATUS_SUCCESS) return
    st = scalar_ptr('beta', beta, bbox, pb)
    if (st /= CUPERM_STATUS_SUCCESS) return
    s = stream_ptr(stream)
    ws = c_null_ptr
    wsb = 0
    if (present(workspace)) then
      ws = workspace
      if (present(workspace_bytes)) then
        wsb = workspace_bytes
      else if (c_associated(ws)) then
        st = lib(cupermContractionGetWorkspaceSize(plan, wsb))
        if (st /= CUPERM_STATUS_SUCCESS) return
      end if
    end if
    st = lib(cupermContract(plan, pa, A, B, pb, C, D, ws, wsb, s))
  end function

  function cuperm_contraction_plan_destroy(plan) result(st)
    type(c_ptr), intent(in) :: plan
    integer(c_int) :: st
    st = lib(cupermContractionPlanDestroy(plan))
  end function

  !> info%description: cuperm_c_string(info%description) (valid while the plan lives).
  function cuperm_contraction_plan_get_info(plan, info) result(st)
    type(c_ptr), intent(in) :: plan
    type(cupermContractionInfo_t), intent(out) :: info
    integer(c_int) :: st
    st = lib(cupermContractionPlanGetInfo(plan, info))
  end function

end module cuperm_f
