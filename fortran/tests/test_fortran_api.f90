! CPU test of the Fortran bindings (needs no GPU): the module's constants and
! bind(c) struct layouts against the C header's (tests/c_values.c), status
! strings, the version, and bad arguments through the wrappers, which must
! return CUPERM_STATUS_INVALID_VALUE with a message before touching a device.
program test_fortran_api
  use, intrinsic :: iso_c_binding
  use cuperm_f
  implicit none

  interface
    function cupermft_c_value(name, found) bind(c, name='cupermft_c_value') result(v)
      import :: c_char, c_int, c_long_long
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), intent(out) :: found
      integer(c_long_long) :: v
    end function
    function cupermft_c_count() bind(c, name='cupermft_c_count') result(n)
      import :: c_int
      integer(c_int) :: n
    end function
    subroutine cupermft_c_print() bind(c, name='cupermft_c_print')
    end subroutine
    function cudaGetDeviceCount(n) bind(c, name='cudaGetDeviceCount') result(err)
      import :: c_int
      integer(c_int), intent(out) :: n
      integer(c_int) :: err
    end function
  end interface

  integer :: failures = 0, checks = 0, compared = 0

  call cupermft_c_print()
  call constants()
  call layouts()
  if (compared /= cupermft_c_count()) then
    print '(a,i0,a,i0,a)', 'FAIL: compared ', compared, ' names, the C table has ', &
        cupermft_c_count(), ' (each must be compared exactly once)'
    failures = failures + 1
  end if
  call strings_and_versions()
  call transpose_arguments()
  call contraction_arguments()
  call create_without_gpu()

  print '(a,i0,a,i0,a)', 'test_fortran_api: ', checks, ' checks, ', failures, ' failures'
  if (failures /= 0) stop 1

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    checks = checks + 1
    if (.not. ok) then
      failures = failures + 1
      print '(a)', 'FAIL: ' // what
    end if
  end subroutine

  !> value must equal the C table's value for name.
  subroutine same(name, value)
    character(len=*), intent(in) :: name
    integer(c_long_long), intent(in) :: value
    integer(c_int) :: found
    integer(c_long_long) :: c
    character(len=32) :: buf
    c = cupermft_c_value(name // c_null_char, found)
    compared = compared + 1
    write(buf, '(i0)') c
    call check(found == 1, name // ' is not in the C table')
    if (found == 1) call check(c == value, name // ': C has ' // trim(buf) // ', Fortran differs')
  end subroutine

  subroutine v(name, value)
    character(len=*), intent(in) :: name
    integer(c_int), intent(in) :: value
    call same(name, int(value, c_long_long))
  end subroutine

  subroutine constants()
    call v('CUPERM_VERSION_MAJOR', CUPERM_VERSION_MAJOR)
    call v('CUPERM_VERSION_MINOR', CUPERM_VERSION_MINOR)
    call v('CUPERM_VERSION_PATCH', CUPERM_VERSION_PATCH)
    call v('CUPERM_VERSION', CUPERM_VERSION)
    call v('CUPERM_MAX_RANK', CUPERM_MAX_RANK)
    call v('CUPERM_STATUS_SUCCESS', CUPERM_STATUS_SUCCESS)
    call v('CUPERM_STATUS_INVALID_VALUE', CUPERM_STATUS_INVALID_VALUE)
    call v('CUPERM_STATUS_NOT_SUPPORTED', CUPERM_STATUS_NOT_SUPPORTED)
    call v('CUPERM_STATUS_ALLOC_FAILED', CUPERM_STATUS_ALLOC_FAILED)
    call v('CUPERM_STATUS_CUDA_ERROR', CUPERM_STATUS_CUDA_ERROR)
    call v('CUPERM_STATUS_INTERNAL_ERROR', CUPERM_STATUS_INTERNAL_ERROR)
    call v('CUPERM_STATUS_ARCH_MISMATCH', CUPERM_STATUS_ARCH_MISMATCH)
    call v('CUPERM_STATUS_LIBRARY_ERROR', CUPERM_STATUS_LIBRARY_ERROR)
    call v('CUPERM_R_16F', CUPERM_R_16F)
    call v('CUPERM_R_16BF', CUPERM_R_16BF)
    call v('CUPERM_R_32F', CUPERM_R_32F)
    call v('CUPERM_R_64F', CUPERM_R_64F)
    call v('CUPERM_C_32F', CUPERM_C_32F)
    call v('CUPERM_C_64F', CUPERM_C_64F)
    call v('CUPERM_R_8I', CUPERM_R_8I)
    call v('CUPERM_R_8U', CUPERM_R_8U)
    call v('CUPERM_R_16I', CUPERM_R_16I)
    call v('CUPERM_R_32I', CUPERM_R_32I)
    call v('CUPERM_R_32U', CUPERM_R_32U)
    call v('CUPERM_R_64I', CUPERM_R_64I)
    call v('CUPERM_R_64U', CUPERM_R_64U)
    call v('CUPERM_KERNEL_COPY', CUPERM_KERNEL_COPY)
    call v('CUPERM_KERNEL_TILED', CUPERM_KERNEL_TILED)
    call v('CUPERM_KERNEL_ROWS', CUPERM_KERNEL_ROWS)
    call v('CUPERM_KERNEL_WHOLE_DIMS', CUPERM_KERNEL_WHOLE_DIMS)
    call v('CUPERM_KERNEL_ROW_TILES', CUPERM_KERNEL_ROW_TILES)
    call v('CUPERM_CONTRACTION_TTGT', CUPERM_CONTRACTION_TTGT)
    call v('CUPERM_CONTRACTION_GETT', CUPERM_CONTRACTION_GETT)
    call v('CUPERM_OP_IDENTITY', CUPERM_OP_IDENTITY)
    call v('CUPERM_OP_NEGATE', CUPERM_OP_NEGATE)
    call v('CUPERM_OP_ABS', CUPERM_OP_ABS)
    call v('CUPERM_OP_RELU', CUPERM_OP_RELU)
    call v('CUPERM_OP_LEAKY_RELU', CUPERM_OP_LEAKY_RELU)
    call v('CUPERM_OP_ELU', CUPERM_OP_ELU)
    call v('CUPERM_OP_SIGMOID', CUPERM_OP_SIGMOID)
    call v('CUPERM_OP_TANH', CUPERM_OP_TANH)
    call v('CUPERM_OP_EXP', CUPERM_OP_EXP)
    call v('CUPERM_OP_SQRT', CUPERM_OP_SQRT)
    call v('CUPERM_OP_CONJ', CUPERM_OP_CONJ)
    call v('CUPERM_COMPUTE_DEFAULT', CUPERM_COMPUTE_DEFAULT)
    call v('CUPERM_COMPUTE_16F', CUPERM_COMPUTE_16F)
    call v('CUPERM_COMPUTE_32F', CUPERM_COMPUTE_32F)
    call v('CUPERM_COMPUTE_64F', CUPERM_COMPUTE_64F)
    call v('CUPERM_COMPUTE_32F_FAST_TF32', CUPERM_COMPUTE_32F_FAST_TF32)
    call v('CUPERM_COMPUTE_32F_FAST_16F', CUPERM_COMPUTE_32F_FAST_16F)
    call v('CUPERM_COMPUTE_32F_FAST_16BF', CUPERM_COMPUTE_32F_FAST_16BF)
    call v('CUPERM_PLAN_MODEL', CUPERM_PLAN_MODEL)
    call v('CUPERM_PLAN_MEASURE', CUPERM_PLAN_MEASURE)
    call v('CUPERM_ALGO_DEFAULT', CUPERM_ALGO_DEFAULT)
    call v('CUPERM_ALGO_TTGT', CUPERM_ALGO_TTGT)
    call v('CUPERM_ALGO_GETT', CUPERM_ALGO_GETT)
  end subroutine

  function addr(p) result(a)
    type(c_ptr), intent(in) :: p
    integer(c_intptr_t) :: a
    a = transfer(p, a)
  end function

  subroutine layouts()
    type(cupermPlanInfo_t), target :: p
    type(cupermTensorDescriptor_t), target :: t
    type(cupermContractionInfo_t), target :: c
    integer(c_int) :: e
    integer(c_intptr_t) :: b
    ! the enums travel as integer(c_int)
    call same('sizeof(cupermStatus_t)', int(c_sizeof(e), c_long_long))
    call same('sizeof(cupermDataType_t)', int(c_sizeof(e), c_long_long))
    call same('sizeof(cupermOperator_t)', int(c_sizeof(e), c_long_long))
    call same('sizeof(cupermComputeType_t)', int(c_sizeof(e), c_long_long))
    call same('sizeof(cupermPlanMode_t)', int(c_sizeof(e), c_long_long))
    call same('sizeof(cupermKernel_t)', int(c_sizeof(e), c_long_long))
    call same('sizeof(cupermContractionAlgo_t)', int(c_sizeof(e), c_long_long))

    call same('sizeof(cupermPlanInfo_t)', int(c_sizeof(p), c_long_long))
    b = addr(c_loc(p))
    call same('cupermPlanInfo_t.kernel', int(addr(c_loc(p%kernel)) - b, c_long_long))
    call same('cupermPlanInfo_t.kernelName', int(addr(c_loc(p%kernelName)) - b, c_long_long))
    call same('cupermPlanInfo_t.fusedRank', int(addr(c_loc(p%fusedRank)) - b, c_long_long))
    call same('cupermPlanInfo_t.volume', int(addr(c_loc(p%volume)) - b, c_long_long))
    call same('cupermPlanInfo_t.tileA', int(addr(c_loc(p%tileA)) - b, c_long_long))
    call same('cupermPlanInfo_t.tileB', int(addr(c_loc(p%tileB)) - b, c_long_long))
    call same('cupermPlanInfo_t.threadsPerBlock', int(addr(c_loc(p%threadsPerBlock)) - b, c_long_long))
    call same('cupermPlanInfo_t.blocks', int(addr(c_loc(p%blocks)) - b, c_long_long))
    call same('cupermPlanInfo_t.predictedSeconds', int(addr(c_loc(p%predictedSeconds)) - b, c_long_long))
    call same('cupermPlanInfo_t.measured', int(addr(c_loc(p%measured)) - b, c_long_long))
    call same('cupermPlanInfo_t.movedElementBytes', int(addr(c_loc(p%movedElementBytes)) - b, c_long_long))
    call same('cupermPlanInfo_t.tuning', int(addr(c_loc(p%tuning)) - b, c_long_long))

    call same('sizeof(cupermTensorDescriptor_t)', int(c_sizeof(t), c_long_long))
    b = addr(c_loc(t))
    call same('cupermTensorDescriptor_t.rank', int(addr(c_loc(t%rank)) - b, c_long_long))
    call same('cupermTensorDescriptor_t.modes', int(addr(c_loc(t%modes)) - b, c_long_long))
    call same('cupermTensorDescriptor_t.extents', int(addr(c_loc(t%extents)) - b, c_long_long))
    call same('cupermTensorDescriptor_t.strides', int(addr(c_loc(t%strides)) - b, c_long_long))
    call same('cupermTensorDescriptor_t.type', int(addr(c_loc(t%type)) - b, c_long_long))
    call same('cupermTensorDescriptor_t.op', int(addr(c_loc(t%op)) - b, c_long_long))
    call same('cupermTensorDescriptor_t.opParam', int(addr(c_loc(t%opParam)) - b, c_long_long))

    call same('sizeof(cupermContractionInfo_t)', int(c_sizeof(c), c_long_long))
    b = addr(c_loc(c))
    call same('cupermContractionInfo_t.m', int(addr(c_loc(c%m)) - b, c_long_long))
    call same('cupermContractionInfo_t.n', int(addr(c_loc(c%n)) - b, c_long_long))
    call same('cupermContractionInfo_t.k', int(addr(c_loc(c%k)) - b, c_long_long))
    call same('cupermContractionInfo_t.batch', int(addr(c_loc(c%batch)) - b, c_long_long))
    call same('cupermContractionInfo_t.calls', int(addr(c_loc(c%calls)) - b, c_long_long))
    call same('cupermContractionInfo_t.swapped', int(addr(c_loc(c%swapped)) - b, c_long_long))
    call same('cupermContractionInfo_t.opFirst', int(addr(c_loc(c%opFirst)) - b, c_long_long))
    call same('cupermContractionInfo_t.opSecond', int(addr(c_loc(c%opSecond)) - b, c_long_long))
    call same('cupermContractionInfo_t.transposedA', int(addr(c_loc(c%transposedA)) - b, c_long_long))
    call same('cupermContractionInfo_t.transposedB', int(addr(c_loc(c%transposedB)) - b, c_long_long))
    call same('cupermContractionInfo_t.transposedD', int(addr(c_loc(c%transposedD)) - b, c_long_long))
    call same('cupermContractionInfo_t.elementwiseKernels', &
              int(addr(c_loc(c%elementwiseKernels)) - b, c_long_long))
    call same('cupermContractionInfo_t.flops', int(addr(c_loc(c%flops)) - b, c_long_long))
    call same('cupermContractionInfo_t.predictedTransposeSeconds', &
              int(addr(c_loc(c%predictedTransposeSeconds)) - b, c_long_long))
    call same('cupermContractionInfo_t.predictedGemmSeconds', &
              int(addr(c_loc(c%predictedGemmSeconds)) - b, c_long_long))
    call same('cupermContractionInfo_t.workspaceBytes', int(addr(c_loc(c%workspaceBytes)) - b, c_long_long))
    call same('cupermContractionInfo_t.description', int(addr(c_loc(c%description)) - b, c_long_long))
    call same('cupermContractionInfo_t.measured', int(addr(c_loc(c%measured)) - b, c_long_long))
    call same('cupermContractionInfo_t.measuredSeconds', &
              int(addr(c_loc(c%measuredSeconds)) - b, c_long_long))
    call same('cupermContractionInfo_t.tuning', int(addr(c_loc(c%tuning)) - b, c_long_long))
    call same('cupermContractionInfo_t.kind', int(addr(c_loc(c%kind)) - b, c_long_long))
  end subroutine

  subroutine strings_and_versions()
    integer(c_int) :: found
    call check(cuperm_get_error_string(CUPERM_STATUS_SUCCESS) == 'CUPERM_STATUS_SUCCESS', 'SUCCESS name')
    call check(cuperm_get_error_string(CUPERM_STATUS_INVALID_VALUE) == 'CUPERM_STATUS_INVALID_VALUE', &
               'INVALID_VALUE name')
    call check(cuperm_get_error_string(CUPERM_STATUS_NOT_SUPPORTED) == 'CUPERM_STATUS_NOT_SUPPORTED', &
               'NOT_SUPPORTED name')
    call check(cuperm_get_error_string(CUPERM_STATUS_ALLOC_FAILED) == 'CUPERM_STATUS_ALLOC_FAILED', &
               'ALLOC_FAILED name')
    call check(cuperm_get_error_string(CUPERM_STATUS_CUDA_ERROR) == 'CUPERM_STATUS_CUDA_ERROR', &
               'CUDA_ERROR name')
    call check(cuperm_get_error_string(CUPERM_STATUS_INTERNAL_ERROR) == 'CUPERM_STATUS_INTERNAL_ERROR', &
               'INTERNAL_ERROR name')
    call check(cuperm_get_error_string(CUPERM_STATUS_ARCH_MISMATCH) == 'CUPERM_STATUS_ARCH_MISMATCH', &
               'ARCH_MISMATCH name')
    call check(cuperm_get_error_string(CUPERM_STATUS_LIBRARY_ERROR) == 'CUPERM_STATUS_LIBRARY_ERROR', &
               'LIBRARY_ERROR name')
    call check(index(cuperm_get_error_string(1234_c_int), 'unknown') > 0, 'unknown status name')
    ! no trailing blanks or NULs: the length is the C string's
    call check(len(cuperm_get_error_string(CUPERM_STATUS_SUCCESS)) == len('CUPERM_STATUS_SUCCESS'), &
               'status name length')
    call check(cuperm_c_string(c_null_ptr) == '' .and. len(cuperm_c_string(c_null_ptr)) == 0, &
               'cuperm_c_string(c_null_ptr) is ""')

    call check(cuperm_get_version() == CUPERM_VERSION, 'cuperm_get_version() == CUPERM_VERSION')
    call check(int(cupermGetVersion(), c_long_long) == cupermft_c_value('CUPERM_VERSION' // c_null_char, &
               found), 'cupermGetVersion() == C CUPERM_VERSION')

    call check(cuperm_data_type_size(CUPERM_R_8I) == 1, 'size R_8I')
    call check(cuperm_data_type_size(CUPERM_R_16BF) == 2, 'size R_16BF')
    call check(cuperm_data_type_size(CUPERM_R_32U) == 4, 'size R_32U')
    call check(cuperm_data_type_size(CUPERM_R_64F) == 8, 'size R_64F')
    call check(cuperm_data_type_size(CUPERM_C_32F) == 8, 'size C_32F')
    call check(cuperm_data_type_size(CUPERM_C_64F) == 16, 'size C_64F')
    call check(cupermDataTypeSize(99_c_int) == 0, 'size of an unknown type is 0')
  end subroutine

  !> status must be INVALID_VALUE and the message contain want.
  subroutine invalid(status, want, what)
    integer(c_int), intent(in) :: status
    character(len=*), intent(in) :: want, what
    character(len=:), allocatable :: msg
    msg = cuperm_get_last_error_message()
    call check(status == CUPERM_STATUS_INVALID_VALUE, what // ': status ' // &
               cuperm_get_error_string(status) // ', want CUPERM_STATUS_INVALID_VALUE')
    call check(len(msg) > 0 .and. index(msg, want) > 0, what // ': message "' // msg // &
               '" should mention "' // want // '"')
    print '(a)', '  ' // what // ': ' // msg
  end subroutine

  subroutine transpose_arguments()
    type(c_ptr) :: handle, plan
    integer(c_int64_t) :: e2(2) = [2_c_int64_t, 3_c_int64_t], e0(0), e33(33)
    integer :: p0(0), p33(33), i
    integer(c_int) :: cperm(2) = [1_c_int, 0_c_int]
    real(c_double) :: seconds
    real(c_float) :: one = 1, zero = 0
    type(cupermPlanInfo_t) :: info
    handle = c_null_ptr   ! no GPU here: the "unassociated handle"
    plan = transfer(-1_c_intptr_t, plan)

    call invalid(cuperm_transpose_plan(handle, plan, e0, p0, CUPERM_R_32F), 'rank', 'rank 0')
    call check(.not. c_associated(plan), 'a failed plan call leaves plan = c_null_ptr')
    e33 = 1
    p33 = [(i, i = 1, 33)]
    call invalid(cuperm_transpose_plan(handle, plan, e33, p33, CUPERM_R_32F), 'rank', 'rank 33')
    call invalid(cuperm_transpose_plan(handle, plan, e2, [1, 1], CUPERM_R_32F), 'perm(2) = 1 repeats', &
                 'non-permutation [1, 1]')
    call invalid(cuperm_transpose_plan(handle, plan, e2, [0, 1], CUPERM_R_32F), 'perm(1) is 0', &
                 '0-based perm [0, 1]')
    call invalid(cuperm_transpose_plan(handle, plan, e2, [2, 1, 3], CUPERM_R_32F), 'size(perm)', &
                 'size(perm) /= size(extents)')
    call invalid(cuperm_transpose_plan(handle, plan, e2, [2, 1], CUPERM_R_32F, &
                 in_strides=[1_c_int64_t]), 'in_strides', 'size(in_strides) /= rank')
    call invalid(cuperm_transpose_plan(handle, plan, e2, [2, 1], CUPERM_R_32F, &
                 out_strides=[1_c_int64_t, 3_c_int64_t, 6_c_int64_t]), 'out_strides', 'size(out_strides) /= rank')
    ! valid arguments reach the library, which rejects the NULL handle (its message supersedes)
    call invalid(cuperm_transpose_plan(handle, plan, e2, [2, 1], CUPERM_R_32F), 'handle', 'NULL handle')
    call invalid(cuperm_transpose_plan(handle, plan, [2, 3], [2, 1], CUPERM_R_32F, [1, 2], [1, 3]), &
                 'handle', 'NULL handle, default-integer extents')
    call invalid(cuperm_transpose_plan(handle, plan, [2, 3], [3, 1], CUPERM_R_32F), 'perm(1) is 3', &
                 'default-integer extents, perm out of range')
    call invalid(cuperm_transpose_plan_measure(handle, plan, e2, [2, 1], CUPERM_R_32F, c_null_ptr, &
                 c_null_ptr), 'handle', 'measure: NULL handle')
    call invalid(cuperm_transpose_plan_measure(handle, plan, e2, [2, 2], CUPERM_R_32F, c_null_ptr, &
                 c_null_ptr), 'perm(2)', 'measure: non-permutation')
    call invalid(cuperm_predict_transpose_time(handle, e2, [2, 1], CUPERM_R_64F, seconds), 'handle', &
                 'predict: NULL handle')
    call invalid(cuperm_handle_write_plan_cache(handle, '/tmp/cuperm-f.cache'), 'handle', &
                 'write plan cache: NULL handle')
    call invalid(cuperm_handle_read_plan_cache(handle, '/tmp/cuperm-f.cache'), 'handle', &
                 'read plan cache: NULL handle')
    call invalid(cuperm_predict_transpose_time(handle, e0, p0, CUPERM_R_64F, seconds), 'rank', &
                 'predict: rank 0')
    call invalid(cuperm_execute(c_null_ptr, one, c_null_ptr, zero, c_null_ptr), 'plan', 'execute: NULL plan')
    call invalid(cuperm_execute(c_null_ptr, .true., c_null_ptr, zero, c_null_ptr), 'alpha', &
                 'execute: logical alpha')
    call invalid(cuperm_execute(c_null_ptr, one, c_null_ptr, zero, c_null_ptr, &
                 cuperm_stream(0_c_intptr_t)), 'plan', 'execute: NULL plan, stream 0')
    call invalid(cuperm_plan_destroy(c_null_ptr), 'plan', 'plan_destroy: NULL plan')
    call invalid(cuperm_plan_get_info(c_null_ptr, info), 'plan', 'plan_get_info: NULL plan')
    call invalid(cuperm_destroy(c_null_ptr), 'handle', 'destroy: NULL handle')
    ! the raw C interface: 0-based perm, its own message
    call check(cupermPlanTranspose(handle, plan, 2_c_int, e2, cperm, CUPERM_R_32F, c_null_ptr, c_null_ptr) &
               == CUPERM_STATUS_INVALID_VALUE, 'raw cupermPlanTranspose: NULL handle')
    call check(index(cuperm_c_string(cupermGetLastErrorMessage()), 'handle') > 0, &
               'raw cupermGetLastErrorMessage mentions handle')
  end subroutine

  subroutine contraction_arguments()
    type(c_ptr) :: plan
    type(cuperm_tensor_t) :: A, B, C, bad, empty
    type(cupermContractionInfo_t) :: info
    integer(c_size_t) :: bytes
    real(c_double) :: one = 1, zero = 0
    A = cuperm_tensor('mk', [4_c_int64_t, 5_c_int64_t], CUPERM_R_64F)
    B = cuperm_tensor([ichar('k'), ichar('n')], [5_c_int64_t, 6_c_int64_t], CUPERM_R_64F)
    C = cuperm_tensor('mn', [4_c_int64_t, 6_c_int64_t], CUPERM_R_64F, strides=[1_c_int64_t, 4_c_int64_t])
    call check(all(A%modes == [ichar('m'), ichar('k')]), 'character modes become their codes')
    call check(allocated(C%strides) .and. .not. allocated(A%strides), 'strides optional')
    call invalid(cuperm_contraction_plan(c_null_ptr, plan, A, B, C, C), 'handle', 'contraction: NULL handle')
    call check(.not. c_associated(plan), 'contraction: plan = c_null_ptr after a failure')
    bad = cuperm_tensor('mn', [4_c_int64_t], CUPERM_R_64F)
    call invalid(cuperm_contraction_plan(c_null_ptr, plan, A, B, bad, C), 'C: size(extents)', &
                 'contraction: size(extents) /= size(modes)')
    bad = cuperm_tensor('mn', [4_c_int64_t, 6_c_int64_t], CUPERM_R_64F, strides=[1_c_int64_t])
    call invalid(cuperm_contraction_plan(c_null_ptr, plan, A, B, C, bad), 'D: size(strides)', &
                 'contraction: size(strides) /= size(modes)')
    call invalid(cuperm_contraction_plan(c_null_ptr, plan, empty, B, C, C), 'A has no modes', &
                 'contraction: tensor not made')
    call invalid(cuperm_contraction_workspace_size(c_null_ptr, bytes), 'plan', 'workspace size: NULL plan')
    call invalid(cuperm_contract(c_null_ptr, one, c_null_ptr, c_null_ptr, zero, c_null_ptr, c_null_ptr), &
                 'plan', 'contract: NULL plan')
    call invalid(cuperm_contraction_plan_get_info(c_null_ptr, info), 'plan', 'contraction info: NULL plan')
    call invalid(cuperm_contraction_plan_destroy(c_null_ptr), 'plan', 'contraction destroy: NULL plan')
  end subroutine

  subroutine create_without_gpu()
    type(c_ptr) :: handle
    integer(c_int) :: n, err
    n = 0
    err = cudaGetDeviceCount(n)
    if (err == 0 .and. n > 0) then
      call check(cuperm_create(handle) == CUPERM_STATUS_SUCCESS, 'create with a GPU')
      call check(cuperm_destroy(handle) == CUPERM_STATUS_SUCCESS, 'destroy with a GPU')
      return
    end if
    handle = transfer(1_c_intptr_t, handle)
    call check(cuperm_create(handle) == CUPERM_STATUS_CUDA_ERROR, 'create without a GPU: CUDA_ERROR')
    call check(.not. c_associated(handle), 'create without a GPU: handle = c_null_ptr')
    call check(index(cuperm_get_last_error_message(), 'device') > 0, 'create without a GPU: message')
    print '(a)', '  create without a GPU: ' // cuperm_get_last_error_message()
  end subroutine

end program
